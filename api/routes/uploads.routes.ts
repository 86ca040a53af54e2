import { z } from 'zod';
import { IMAGE_MAX_BYTES, readImage, storeImage } from '../../domain/uploads/uploads.service.js';
import { readUploadedFile } from '../http/multipart.js';
import { defineRoute } from '../http/route.js';
import { projectIdOf } from './session-user.js';

export const uploadRoutes = () => [
  defineRoute({
    method: 'post',
    path: '/uploads/image',
    summary:
      'Upload an image for template bodies (multipart field `image`; JPEG, PNG, GIF or WebP; 5 MB)',
    tag: 'Uploads',
    auth: 'project',
    upload: { field: 'image', maxBytes: IMAGE_MAX_BYTES },
    status: 201,
    response: z.object({
      url: z.string(),
      key: z.string(),
      contentType: z.string(),
      size: z.number().int(),
    }),
    handler: async ({ deps, auth, ctx }) => {
      const file = await readUploadedFile(ctx, { field: 'image', maxBytes: IMAGE_MAX_BYTES });
      return storeImage({ ...deps.uploads, projectId: projectIdOf(auth), content: file.content });
    },
  }),
  defineRoute({
    method: 'get',
    path: '/uploads/:key',
    summary: 'An uploaded image (public: emails link to it)',
    tag: 'Uploads',
    auth: 'none',
    rateLimit: false,
    params: z.object({ key: z.string().max(64) }),
    produces: 'image/*',
    handler: async ({ deps, params, ctx }) => {
      const image = await readImage({ ...deps.uploads, key: params.key });
      ctx.type = image.contentType;
      ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
      ctx.set('X-Content-Type-Options', 'nosniff');
      return image.content;
    },
  }),
];
