// A webhook receiver in a process of its own for bench:webhooks: answers every POST 200 at once,
// counts them (and the distinct webhook-ids), and tells the counts on GET /count. POST /reset
// starts the counts again. Prints `listening <port>` when ready.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

let posts = 0;
let ids = new Set<string>();
const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/count') {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ posts, distinct: ids.size }));
    return;
  }
  if (req.method === 'POST' && req.url === '/reset') {
    posts = 0;
    ids = new Set();
    res.end();
    return;
  }
  req.resume();
  req.on('end', () => {
    posts += 1;
    const id = req.headers['webhook-id'];
    if (typeof id === 'string') ids.add(id);
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end('ok');
  });
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => {
  console.log(`listening ${(server.address() as AddressInfo).port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
