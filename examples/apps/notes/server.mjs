// A tiny notes app the project does not ship with any fault of its own: one form, one POST write,
// a JSON store. The example of docs/fault-proxy.md "Put your own app behind the fault proxy".
//   node server.mjs            listens on 127.0.0.1:$PORT (default 8651), store $NOTES_STORE (default ./notes.json)
import http from 'node:http';
import fs from 'node:fs';
import { storeFile, readStore, writeStore } from './store.mjs';

const port = Number(process.env.PORT ?? 8651);
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

const page = (title, saved) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Notes</title></head>
<body><h1>Notes</h1>
${saved ? '<p id="notice" role="status">Saved.</p>' : ''}
<form method="post" action="/save">
  <label for="title">Title</label> <input id="title" name="title" value="${esc(title)}">
  <button id="save" type="submit">Save</button>
</form></body></html>`;

if (!fs.existsSync(storeFile)) writeStore({ title: 'Untitled' });

http.createServer((req, res) => {
  const url = new URL(req.url, 'http://localhost');
  if (req.method === 'GET' && url.pathname === '/') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(page(readStore().title, url.searchParams.get('saved') === '1'));
    return;
  }
  if (req.method === 'POST' && url.pathname === '/save') {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      const title = new URLSearchParams(body).get('title') ?? '';
      writeStore({ ...readStore(), title });
      res.writeHead(303, { location: '/?saved=1' });
      res.end();
    });
    return;
  }
  res.writeHead(404, { 'content-type': 'text/plain' });
  res.end('not found\n');
}).listen(port, '127.0.0.1', () => process.stdout.write(`notes: http://127.0.0.1:${port} (store ${storeFile})\n`));
