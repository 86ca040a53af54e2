import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectFixture } from '../helpers/project-fixture.js';
import { startStack, type TestStack } from '../helpers/stack.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const MAX = 5 * 1024 * 1024;

describe('POST /uploads/image', () => {
  it('stores an image by its magic bytes and serves it publicly', async () => {
    const { sk } = await projectFixture(stack.api);
    const res = await stack.api.upload('/uploads/image', {
      field: 'image',
      content: PNG,
      filename: 'pixel.gif',
      key: sk.key,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ contentType: 'image/png', size: PNG.length });
    expect(res.body.key).toMatch(/\.png$/);
    expect(res.body.url).toBe(`${stack.api.baseUrl}/uploads/${res.body.key}`);
    const served = await fetch(res.body.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
    const gif = await stack.api.upload('/uploads/image', {
      field: 'image',
      content: GIF,
      filename: 'a.png',
      key: sk.key,
    });
    expect(gif.body.contentType).toBe('image/gif');
  });

  it('refuses what is not an image, whatever its name', async () => {
    const { sk } = await projectFixture(stack.api);
    for (const content of [
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      Buffer.from('just text'),
    ]) {
      const res = await stack.api.upload('/uploads/image', {
        field: 'image',
        content,
        filename: 'x.png',
        key: sk.key,
      });
      expect(res.status).toBe(422);
      expect(res.body.error.errors[0]).toMatchObject({ field: 'image', code: 'invalid_image' });
    }
    expect(
      (await stack.api.upload('/uploads/image', { field: 'file', content: PNG, key: sk.key }))
        .status,
    ).toBe(422);
  });

  it('takes 5 MB and refuses one byte more', async () => {
    const { sk } = await projectFixture(stack.api);
    const exact = Buffer.concat([PNG, Buffer.alloc(MAX - PNG.length)]);
    expect(
      (await stack.api.upload('/uploads/image', { field: 'image', content: exact, key: sk.key }))
        .status,
    ).toBe(201);
    const over = await stack.api.upload('/uploads/image', {
      field: 'image',
      content: Buffer.concat([exact, Buffer.alloc(1)]),
      key: sk.key,
    });
    expect(over.status).toBe(413);
  });

  it('needs the secret key to upload, and answers 404 for unknown files', async () => {
    const { project } = await projectFixture(stack.api);
    expect(
      (
        await stack.api.upload('/uploads/image', {
          field: 'image',
          content: PNG,
          key: project.publicKey,
        })
      ).status,
    ).toBe(401);
    expect(
      (await fetch(`${stack.api.baseUrl}/uploads/00000000-0000-4000-8000-000000000000.png`)).status,
    ).toBe(404);
    expect((await fetch(`${stack.api.baseUrl}/uploads/..%2F..%2Fsecrets.json`)).status).toBe(404);
  });
});
