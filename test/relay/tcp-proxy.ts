/**
 * A TCP proxy for fault tests: it forwards to a target (the sandbox, Redis) and can stop listening — connections to it
 * are then refused before anything is sent, and those open are cut — and listen again on the same port, as a service
 * that goes away and comes back.
 */
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  readonly port: number;
  /** Where connections go: `http://…` or `redis://…` (host and port are what count). */
  target: string;
  open(): Promise<void>;
  close(): Promise<void>;
}

export async function tcpProxy(target = ''): Promise<TcpProxy> {
  let to = target ? new URL(target) : undefined;
  let port = 0;
  let server: Server | undefined;
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  };
  const open = () =>
    new Promise<void>((resolve, reject) => {
      if (server) return resolve(); // listening already
      const s = createServer((client) => {
        const upstream = connect(Number(to?.port), to?.hostname ?? '127.0.0.1');
        track(client);
        track(upstream);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
        client.pipe(upstream).pipe(client);
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        port = (s.address() as AddressInfo).port;
        server = s;
        resolve();
      });
    });
  const close = () =>
    new Promise<void>((resolve) => {
      const s = server;
      server = undefined;
      if (!s) return resolve();
      s.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
  await open();
  return {
    get port() {
      return port;
    },
    get target() {
      return to?.href ?? '';
    },
    set target(url: string) {
      to = new URL(url);
    },
    open,
    close,
  };
}
