/**
 * `npm start`'s three ports, each from the variable that moves it, checked before anything is built: a port that is
 * taken is named with its variable (`RELAY_PORT=8788 npm start`), instead of an EADDRINUSE stack after the build.
 * Run as a script (the first step of `npm start`), it exits 1 with that message.
 */
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export interface DemoPort {
  variable: 'SANDBOX_PORT' | 'RELAY_PORT' | 'DEMO_PORT';
  what: string;
  port: number;
}

const DEFAULTS = [
  { variable: 'SANDBOX_PORT', what: 'the billing sandbox', fallback: 8790 },
  { variable: 'RELAY_PORT', what: 'the relay', fallback: 8787 },
  { variable: 'DEMO_PORT', what: 'the demo page', fallback: 8080 },
] as const;

/** The three ports from the environment; throws naming a variable that is not a port number. */
export function demoPorts(env: Record<string, string | undefined> = process.env): DemoPort[] {
  return DEFAULTS.map(({ variable, what, fallback }) => {
    const text = env[variable]?.trim() || String(fallback);
    const port = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
    if (!(port >= 1 && port <= 65535)) throw new Error(`${variable}=${env[variable]} is not a port number (1–65535).`);
    return { variable, what, port };
  });
}

/** Whether something already listens on the port, on this machine's IPv4 or IPv6 loopback (where localhost goes). */
async function taken(port: number): Promise<boolean> {
  for (const host of ['127.0.0.1', '::1']) {
    const free = await new Promise<boolean | null>((resolve) => {
      const server = createServer();
      server.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'EADDRINUSE' ? false : null));
      server.listen(port, host, () => server.close(() => resolve(true)));
    });
    if (free === false) return true; // null: no such address here (no IPv6), which takes nothing
  }
  return false;
}

/** One line per taken port, saying which variable moves it; empty when all three are free. */
export async function portProblems(ports: DemoPort[]): Promise<string[]> {
  const problems: string[] = [];
  const seen = new Map<number, DemoPort>();
  for (const p of ports) {
    const same = seen.get(p.port);
    if (same) problems.push(`${p.variable} and ${same.variable} are both ${p.port}: give ${p.what} another port.`);
    else if (await taken(p.port))
      problems.push(
        `Port ${p.port} (${p.what}) is taken: set ${p.variable} to a free port, e.g. ${p.variable}=${p.port + 1} npm start`,
      );
    seen.set(p.port, p);
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let problems: string[];
  try {
    problems = await portProblems(demoPorts());
  } catch (error) {
    problems = [(error as Error).message];
  }
  if (problems.length) {
    console.error(`npm start cannot start:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    process.exit(1);
  }
}
