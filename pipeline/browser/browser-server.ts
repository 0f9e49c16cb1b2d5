// make browser-server: one of Debian's browsers as a Playwright browser server on 127.0.0.1, until
// stopped (Ctrl-C, SIGTERM). Prints its endpoint; any run target then uses it with
//   make run-layers BROWSER_WS_ENDPOINT=ws://127.0.0.1:PORT/PATH ARGS="--smoke"
// instead of launching a browser of its own. Reads and writes nothing.
import { main, intOption } from '../../core/cli.ts';
import { log } from '../../core/log.ts';
import { UsageError } from '../../core/errors.ts';
import { parseBrowserName } from './launch.ts';
import { startBrowserServer } from './server.ts';

await main({
  name: 'make browser-server',
  summary: 'serve Debian\'s chromium or firefox-esr as a Playwright browser server on 127.0.0.1 and print its endpoint (BROWSER_WS_ENDPOINT)',
  usage: 'make browser-server [BROWSER=firefox] [ARGS="--port 3000 --ws-path rstack"]',
  options: {
    browser: { type: 'string', help: 'chromium (default, or $BROWSER) or firefox' },
    port: { type: 'string', default: '0', help: 'the port on 127.0.0.1 (0: any free one)' },
    'ws-path': { type: 'string', help: 'the endpoint\'s path, so the endpoint is known in advance (e.g. a Kubernetes sidecar)' },
  },
  async run(values) {
    const name = parseBrowserName(values.browser);
    const port = intOption(values.port, 'port', 0, 0);
    if (port > 65535) throw new UsageError(`--port takes 0–65535, not ${port}`);
    const wsPath = values['ws-path'] ? `/${values['ws-path'].replace(/^\/+/, '')}` : undefined;
    const server = await startBrowserServer(name, { port, wsPath });
    process.stdout.write(`${server.wsEndpoint()}\n`);
    log({ kind: 'info', message: `${name} browser server (pid ${server.process().pid}) on ${server.wsEndpoint()}; Ctrl-C stops it` });
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    await server.close();
    return 0;
  },
});
