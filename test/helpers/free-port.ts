// A port on 127.0.0.1 that nothing listens on now (the kernel's choice), for a test's own server.
import net from 'node:net';

export const freePort = () => new Promise<number>((resolve, reject) => {
  const s = net.createServer();
  s.once('error', reject);
  s.listen(0, '127.0.0.1', () => { const { port } = s.address() as net.AddressInfo; s.close(() => resolve(port)); });
});
