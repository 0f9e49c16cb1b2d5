// A tiny server for test/core/service.test.ts: node http-server.mjs PORT LOG [MODE]
//   MODE exit-early: writes one line to LOG and exits 3 before listening
//   MODE ignore-term: listens, and ignores SIGTERM (only KILL ends it)
import fs from 'node:fs';
import http from 'node:http';

const [port, log, mode] = process.argv.slice(2);
if (mode === 'exit-early') {
  fs.appendFileSync(log, 'starting\nfatal: no config file\n');
  process.exit(3);
}
if (mode === 'ignore-term') process.on('SIGTERM', () => fs.appendFileSync(log, 'TERM ignored\n'));
http.createServer((req, res) => res.end('ok')).listen(Number(port), '127.0.0.1', () => fs.appendFileSync(log, `listening on ${port}\n`));
