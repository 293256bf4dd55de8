/**
 * A private Redis HA set for a test: a primary `redis-server`, two replicas of it, and three sentinels
 * (`redis-server --sentinel`, each with its own generated config) that elect a new primary when it dies. Every node asks
 * for a password (the sentinels a password of their own), the data nodes keep an append-only file (everysec); their
 * files and the sentinels' are in memory (/dev/shm) where it exists.
 *
 * The primary is reached through a TCP proxy on its own port — the address the sentinels monitor, the replicas
 * replicate from and the relays are told — so that `cutReplication()` can stop its replication links (and only them)
 * carrying anything, as a replica partitioned away or lagging, before `killPrimary()` (SIGKILL) forces a failover:
 * whatever the primary took after the cut dies with it.
 *
 * Ports are picked below 32768 (out of Linux's range for outgoing connections, so no client socket takes one between
 * the check and the server's start). `stop()` kills every process and removes the temporary folder.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'redis';

export interface SentinelServers {
  /** The name the sentinels monitor the primary under. */
  readonly name: string;
  /** `REDIS_SENTINELS` for a relay: the three sentinels' `host:port`. */
  readonly sentinels: string;
  /** The data nodes' password (`REDIS_PASSWORD`), and the sentinels' (`REDIS_SENTINEL_PASSWORD`). */
  readonly password: string;
  readonly sentinelPassword: string;
  /** The address the first primary is known by (its proxy's port). */
  readonly firstPrimaryPort: number;
  /** The primary's port as the sentinels name it now. */
  primaryPort(): Promise<number>;
  /** The first primary's replication links carry nothing from now on, either way (no data, no acknowledgement). */
  cutReplication(): void;
  /** SIGKILL to the first primary; its address then refuses connections. */
  killPrimary(): Promise<void>;
  /** Everything the processes wrote, for a failing test's message. */
  output(): string;
  stop(): Promise<void>;
}

const MISSING =
  'redis-server is not installed: the Sentinel tests start their own (apt-get install redis-server, or brew install redis).';
const NAME = 'relay-primary';

export async function startSentinelServers(): Promise<SentinelServers> {
  // In memory where there is one: the nodes' fsyncs (AOF, every sentinel's config on each change) stay off the disk
  // the other tests use (SQLite, synchronous FULL).
  const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'billing-pay-sentinel-'));
  const password = 'redis-data-password-5d1e';
  const sentinelPassword = 'redis-sentinel-password-9a4c';
  const processes: Process[] = [];
  let proxy: ReplicationProxy | undefined;
  const stop = async () => {
    await Promise.all(processes.map((p) => p.kill()));
    await proxy?.close();
    rmSync(dir, { recursive: true, force: true });
  };
  const output = () => processes.map((p) => p.output()).join('\n');
  try {
    // The primary, its proxy, two replicas, three sentinels.
    const [primaryPort, proxyPort, ...ports] = await lowPorts(2 + 2 + 3);
    // A full sync starts at once (not 5 s later, waiting for more replicas to share it).
    // prettier-ignore
    const dataNode = (port: number, extra: string[] = []) => [
      '--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--dbfilename', `dump-${port}.rdb`,
      '--appendonly', 'yes', '--appendfsync', 'everysec', '--appenddirname', `aof-${port}`,
      '--requirepass', password, '--masterauth', password, '--repl-diskless-sync-delay', '0', ...extra,
    ];
    // Each process is the harness's to stop as soon as it runs, and all of a batch are waited for, started or not.
    const launch = async (commands: { args: string[]; ready: RegExp }[]) => {
      const started = await Promise.allSettled(commands.map(({ args, ready }) => start(args, ready)));
      for (const result of started) if (result.status === 'fulfilled') processes.push(result.value);
      const failed = started.find((result) => result.status === 'rejected');
      if (failed) throw failed.reason;
      return started.map((result) => (result as PromiseFulfilledResult<Process>).value);
    };
    const [primary] = await launch([
      { args: ['redis-server', ...dataNode(primaryPort!)], ready: /Ready to accept connections/ },
    ]);
    proxy = await replicationProxy(proxyPort!, primaryPort!);
    await launch(
      ports.slice(0, 2).map((port) => ({
        args: ['redis-server', ...dataNode(port, ['--replicaof', '127.0.0.1', String(proxyPort)])],
        ready: /MASTER <-> REPLICA sync: Finished with success/,
      })),
    );
    const sentinelPorts = ports.slice(2);
    await launch(
      sentinelPorts.map((port) => {
        const file = join(dir, `sentinel-${port}.conf`);
        writeFileSync(
          file,
          [
            `port ${port}`,
            'bind 127.0.0.1',
            `dir ${dir}`,
            `requirepass ${sentinelPassword}`,
            `sentinel sentinel-pass ${sentinelPassword}`,
            `sentinel monitor ${NAME} 127.0.0.1 ${proxyPort} 2`,
            `sentinel auth-pass ${NAME} ${password}`,
            `sentinel down-after-milliseconds ${NAME} 1000`,
            `sentinel failover-timeout ${NAME} 3000`,
            `sentinel parallel-syncs ${NAME} 1`,
            '',
          ].join('\n'),
        );
        return { args: ['redis-server', file, '--sentinel'], ready: /\+monitor master/ };
      }),
    );

    const askSentinel = async (port: number, ...args: string[]): Promise<unknown> => {
      const client = createClient({
        RESP: 2,
        password: sentinelPassword,
        socket: { host: '127.0.0.1', port, connectTimeout: 1_000, reconnectStrategy: false },
      });
      client.on('error', () => {});
      await client.connect();
      try {
        return await client.sendCommand(['SENTINEL', ...args]);
      } finally {
        client.destroy();
      }
    };
    // Ready once every sentinel knows both replicas and the two other sentinels: without them no failover.
    const until = Date.now() + 15_000;
    for (;;) {
      const states = await Promise.all(
        sentinelPorts.map(async (port) => {
          const flat = (await askSentinel(port, 'MASTER', NAME)) as string[];
          const fields = new Map<string, string>();
          for (let i = 0; i + 1 < flat.length; i += 2) fields.set(flat[i]!, flat[i + 1]!);
          return fields.get('num-slaves') === '2' && fields.get('num-other-sentinels') === '2';
        }),
      );
      if (states.every(Boolean)) break;
      if (Date.now() > until) throw new Error(`the sentinels did not find one another within 15 s:\n${output()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    return {
      name: NAME,
      sentinels: sentinelPorts.map((port) => `127.0.0.1:${port}`).join(','),
      password,
      sentinelPassword,
      firstPrimaryPort: proxyPort!,
      async primaryPort() {
        for (const port of sentinelPorts) {
          try {
            const [, primary] = (await askSentinel(port, 'GET-MASTER-ADDR-BY-NAME', NAME)) as [string, string];
            return Number(primary);
          } catch {
            // That sentinel is away: ask the next.
          }
        }
        throw new Error('no sentinel answered');
      },
      cutReplication: () => proxy!.cut(),
      async killPrimary() {
        await primary!.kill();
        await proxy!.close();
      },
      output,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

interface Process {
  output(): string;
  kill(): Promise<void>;
}

/** Spawns `command` and resolves once its output matches `ready` (within 10 s). */
async function start([command, ...args]: string[], ready: RegExp): Promise<Process> {
  const child: ChildProcess = spawn(command!, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += String(chunk)));
  child.stderr!.on('data', (chunk: Buffer) => (output += String(chunk)));
  const started: Process = {
    output: () => output,
    kill: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`${args.join(' ')} did not start within 10 s:\n${output}`)), 10_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      clearInterval(poll);
      void started.kill();
      reject(error);
    };
    const poll = setInterval(() => {
      if (!ready.test(output)) return;
      clearTimeout(timer);
      clearInterval(poll);
      child.removeAllListeners('exit');
      resolve();
    }, 20);
    child.once('error', (error: NodeJS.ErrnoException) => fail(error.code === 'ENOENT' ? new Error(MISSING) : error));
    child.once('exit', (code) => fail(new Error(`${args.join(' ')} exited (${code}) before it was ready:\n${output}`)));
  });
  return started;
}

interface ReplicationProxy {
  cut(): void;
  close(): Promise<void>;
}

/**
 * Forwards `port` to `target`. A connection is a replication link once the client sends REPLCONF or PSYNC (as a
 * replica does, and no other client); after `cut()` nothing more passes on those, either way.
 */
async function replicationProxy(port: number, target: number): Promise<ReplicationProxy> {
  let cut = false;
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  };
  const server: Server = createServer((client) => {
    const upstream = connect(target, '127.0.0.1');
    track(client);
    track(upstream);
    let replication = false;
    let sniffed = '';
    client.on('data', (chunk: Buffer) => {
      if (!replication && sniffed.length < 4_096) {
        sniffed += chunk.toString('latin1');
        replication = /REPLCONF|PSYNC/i.test(sniffed);
      }
      if (!(cut && replication)) upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!(cut && replication)) client.write(chunk);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  let closed: Promise<void> | undefined;
  return {
    cut: () => void (cut = true),
    close: () =>
      (closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      })),
  };
}

const taken = new Set<number>();

/** `count` distinct ports in 20000–32767 that nothing listens on now. */
async function lowPorts(count: number): Promise<number[]> {
  const ports: number[] = [];
  while (ports.length < count) {
    const port = 20_000 + Math.floor(Math.random() * 12_768);
    if (taken.has(port) || !(await isFree(port))) continue;
    taken.add(port);
    ports.push(port);
  }
  return ports;
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
