# One image for both halves; docker-compose.yml runs it as `api` and as `worker`.
FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts=false
COPY . .
ENV NODE_ENV=production
EXPOSE 3000
CMD ["npm", "run", "api"]
