import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { demoPorts, portProblems } from '../../scripts/ports.js';

/** A port the OS had free a moment ago. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('npm start: its three ports, checked before the build', () => {
  let busy: Server;
  let busyPort: number;
  before(async () => {
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    busyPort = (busy.address() as { port: number }).port;
  });
  after(() => new Promise((resolve) => busy.close(resolve)));

  it('reads them from SANDBOX_PORT, RELAY_PORT and DEMO_PORT, with the defaults', () => {
    assert.deepEqual(
      demoPorts({}).map((p) => [p.variable, p.port]),
      [
        ['SANDBOX_PORT', 8790],
        ['RELAY_PORT', 8787],
        ['DEMO_PORT', 8080],
      ],
    );
    assert.equal(demoPorts({ RELAY_PORT: '9001' })[1]!.port, 9001);
    assert.throws(() => demoPorts({ DEMO_PORT: 'eighty' }), /DEMO_PORT=eighty is not a port number/);
  });

  it('names a taken port and the variable that moves it; free ports pass', async () => {
    const env = {
      SANDBOX_PORT: String(await freePort()),
      RELAY_PORT: String(busyPort),
      DEMO_PORT: String(await freePort()),
    };
    assert.deepEqual(await portProblems(demoPorts(env)), [
      `Port ${busyPort} (the relay) is taken: set RELAY_PORT to a free port, e.g. RELAY_PORT=${busyPort + 1} npm start`,
    ]);
    assert.deepEqual(await portProblems(demoPorts({ ...env, RELAY_PORT: String(await freePort()) })), []);
  });

  it('refuses the same port twice', async () => {
    const port = String(await freePort());
    const problems = await portProblems(
      demoPorts({ SANDBOX_PORT: port, RELAY_PORT: port, DEMO_PORT: String(await freePort()) }),
    );
    assert.deepEqual(problems, [`RELAY_PORT and SANDBOX_PORT are both ${port}: give the relay another port.`]);
  });
});
