/** Long-running processes of the package tests (a relay, a web server), started on free ports and stopped for sure. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

/** A port nothing listens on now (the kernel's pick). */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

export interface Running {
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts `command` and resolves once `url` answers 200 (its output in the error if it exits or takes over 20 s). It is
 * stopped with SIGTERM by `stop`, and with SIGKILL if the test process exits first.
 */
export async function startServing(
  command: string,
  args: string[],
  { cwd, env, url }: { cwd: string; env: Record<string, string>; url: string },
): Promise<Running> {
  let output = '';
  const child = spawn(command, args, { cwd, env: { PATH: process.env.PATH ?? '', ...env }, stdio: 'pipe' });
  child.stdout.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
  child.stderr.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
  const exited = once(child, 'exit');
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const running: Running = {
    output: () => output,
    async stop() {
      process.off('exit', killOnExit);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
  const until = Date.now() + 20_000;
  for (;;) {
    const ok = await fetch(url).then(
      async (res) => (await res.arrayBuffer(), res.ok),
      () => false,
    );
    if (ok) return running;
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > until) {
      await running.stop();
      throw new Error(`${command} ${args.join(' ')}: ${url} never answered:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
