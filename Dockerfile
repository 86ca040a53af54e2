# One image for both halves; docker-compose.yml runs it as `api` and as `worker`.

# Build stage: the dashboard (Vite and the typed client's generator are dev dependencies).
FROM node:24-bookworm-slim AS dashboard
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY . .
RUN npm run build:web && npm run build:server

# Run stage: production dependencies, the sources (the worker bundles its workflows from them),
# the server bundle and the built dashboard.
FROM node:24-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts=false
COPY . .
COPY --from=dashboard /app/web/dist ./web/dist
COPY --from=dashboard /app/dist/server ./dist/server
ENV NODE_ENV=production
EXPOSE 3000
CMD ["npm", "run", "api"]
