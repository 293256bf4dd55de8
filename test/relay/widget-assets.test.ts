/**
 * The widget bundles served like a CDN's assets (src/relay/assets/widget-assets.ts): precompressed forms by
 * Accept-Encoding, strong ETags and 304, the immutable content-hashed name, and an SRI hash that matches the bytes.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { writeBundleAssets } from '../../scripts/build-assets.js';
import {
  loadWidgetAssets,
  pickEncoding,
  serveWidgetAssets,
  type BundleManifest,
} from '../../src/relay/assets/widget-assets.js';
import { SHOP, startStack, type Stack } from './harness.js';

const sri = (bytes: Uint8Array) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;

/** A GET over a real socket, the body as it came on the wire (fetch would decode it). */
function rawGet(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

describe('widget assets: Accept-Encoding', () => {
  it('picks brotli, then gzip, by the client’s weights; identity otherwise', () => {
    assert.equal(pickEncoding('gzip, deflate, br, zstd'), 'br');
    assert.equal(pickEncoding('gzip'), 'gzip');
    assert.equal(pickEncoding('br;q=0, gzip'), 'gzip');
    assert.equal(pickEncoding('br;q=0.5, gzip;q=0.8'), 'gzip');
    assert.equal(pickEncoding('*'), 'br');
    assert.equal(pickEncoding('*;q=0, identity'), 'identity');
    assert.equal(pickEncoding(undefined), 'identity');
    assert.equal(pickEncoding('deflate'), 'identity');
  });
});

describe('widget assets: a build served', () => {
  let dir: string;
  let app: Hono;
  let manifest: BundleManifest;
  const bundle = 'export const x = "' + 'billing-pay '.repeat(500) + '";\n';
  before(() => {
    dir = `${mkdtempSync(`${tmpdir()}/widget-assets-`)}/`;
    writeFileSync(`${dir}widget.js`, bundle);
    manifest = writeBundleAssets(dir);
    app = new Hono();
    const assets = loadWidgetAssets(dir);
    app.get(
      '/:file',
      serveWidgetAssets(() => assets),
    );
  });
  after(() => rmSync(dir, { recursive: true }));

  it('the manifest names the content-hashed file and the SRI hash of the bytes', () => {
    assert.equal(manifest['widget.js']!.integrity, sri(Buffer.from(bundle)));
    assert.match(manifest['widget.js']!.file, /^widget\.[0-9a-f]{10}\.js$/);
  });

  it('sends brotli, gzip or the file by Accept-Encoding, each with its own strong ETag and Vary', async () => {
    const br = await app.request('/widget.js', { headers: { 'accept-encoding': 'gzip, br' } });
    const gz = await app.request('/widget.js', { headers: { 'accept-encoding': 'gzip' } });
    const plain = await app.request('/widget.js');
    const bodies = await Promise.all([br, gz, plain].map(async (res) => Buffer.from(await res.arrayBuffer())));
    assert.equal(br.headers.get('content-encoding'), 'br');
    assert.equal(brotliDecompressSync(bodies[0]!).toString(), bundle);
    assert.equal(gz.headers.get('content-encoding'), 'gzip');
    assert.equal(gunzipSync(bodies[1]!).toString(), bundle);
    assert.equal(plain.headers.get('content-encoding'), null);
    assert.equal(bodies[2]!.toString(), bundle);
    const etags = [br, gz, plain].map((res) => res.headers.get('etag'));
    for (const etag of etags) assert.match(etag ?? '', /^"[0-9a-f]{20}(-br|-gz)?"$/, 'a strong ETag');
    assert.equal(new Set(etags).size, 3, 'one ETag per encoding');
    [br, gz, plain].forEach((res, i) => {
      assert.equal(res.headers.get('vary'), 'Accept-Encoding');
      assert.equal(res.headers.get('cache-control'), 'public, max-age=300');
      assert.equal(Number(res.headers.get('content-length')), bodies[i]!.length);
    });
  });

  it('answers 304 with no body to If-None-Match of the encoding sent (weak or listed), 200 to another', async () => {
    const first = await app.request('/widget.js', { headers: { 'accept-encoding': 'br' } });
    const etag = first.headers.get('etag')!;
    for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await app.request('/widget.js', { headers: { 'accept-encoding': 'br', 'if-none-match': inm } });
      assert.equal(again.status, 304, inm);
      assert.equal(again.headers.get('etag'), etag);
      assert.equal(await again.text(), '');
    }
    const otherEncoding = await app.request('/widget.js', {
      headers: { 'accept-encoding': 'gzip', 'if-none-match': etag },
    });
    assert.equal(otherEncoding.status, 200, 'the gzip form is other bytes');
  });

  it('serves the content-hashed name as immutable and the manifest revalidated', async () => {
    const hashed = await app.request(`/${manifest['widget.js']!.file}`);
    assert.equal(hashed.status, 200);
    assert.equal(hashed.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(await hashed.text(), bundle);
    assert.equal((await app.request('/widget.0123456789.js')).status, 404, 'an old hash is not served');
    const json = await app.request('/bundles.json');
    assert.equal(json.headers.get('cache-control'), 'no-cache');
    assert.match(json.headers.get('content-type') ?? '', /application\/json/);
    assert.deepEqual(await json.json(), manifest);
  });

  it('refuses to serve a build whose files no longer match the manifest', async () => {
    writeFileSync(`${dir}widget.js`, `${bundle}// changed after the build\n`);
    await assert.rejects(loadWidgetAssets(dir), /widget\.js does not match bundles\.json/);
    writeFileSync(`${dir}widget.js`, bundle);
    writeFileSync(`${dir}widget.js.gz`, readFileSync(`${dir}widget.js.br`));
    await assert.rejects(loadWidgetAssets(dir), /\.br or \.gz is not widget\.js/);
  });
});

describe('widget assets: the relay serves the real build', () => {
  let stack: Stack;
  const manifest = JSON.parse(
    readFileSync(new URL('../../dist/bundles.json', import.meta.url), 'utf8'),
  ) as BundleManifest;
  before(async () => {
    stack = await startStack();
  });
  after(() => stack.close());

  it('the published SRI hash matches the served bytes in every encoding, under both names', async () => {
    const published = (await (await fetch(`${stack.relay.url}/bundles.json`)).json()) as BundleManifest;
    assert.deepEqual(published, manifest);
    assert.deepEqual(Object.keys(published).sort(), [
      'billing-pay-account.js',
      'billing-pay-pay.js',
      'billing-pay-return.js',
      'billing-pay-ru.json',
      'billing-pay.js',
    ]);
    const texts = await rawGet(`${stack.relay.url}/${published['billing-pay-ru.json']!.file}`);
    assert.match(String(texts.headers['content-type']), /^application\/json/);
    assert.equal(
      (JSON.parse(texts.body.toString()) as { pay: { labels: { pay: string } } }).pay.labels.pay,
      'Оплатить',
    );
    for (const [name, { file, integrity }] of Object.entries(published)) {
      for (const path of [name, file]) {
        const br = await rawGet(`${stack.relay.url}/${path}`, { 'accept-encoding': 'br', origin: SHOP });
        assert.equal(br.headers['content-encoding'], 'br');
        assert.equal(br.headers['access-control-allow-origin'], '*', 'a crossorigin script needs CORS');
        const stranger = await rawGet(`${stack.relay.url}/${path}`, { origin: 'https://stranger.example' });
        assert.equal(stranger.status, 200);
        assert.equal(stranger.headers['access-control-allow-origin'], '*', 'public: any page may run it');
        assert.equal(stranger.headers['access-control-allow-credentials'], undefined);
        assert.match(String(br.headers.etag), /^"[0-9a-f]{20}-br"$/);
        assert.equal(sri(brotliDecompressSync(br.body)), integrity, `${path} brotli`);
        const gz = await rawGet(`${stack.relay.url}/${path}`, { 'accept-encoding': 'gzip' });
        assert.equal(sri(gunzipSync(gz.body)), integrity, `${path} gzip`);
        const plain = await rawGet(`${stack.relay.url}/${path}`);
        assert.equal(sri(plain.body), integrity, `${path} as it is`);
        // A small late module compresses less: the ratio holds for the bundles and the texts.
        if (plain.body.length > 5_000)
          assert.ok(
            br.body.length < plain.body.length / 2.5,
            `${path}: ${br.body.length} B brotli of ${plain.body.length} B`,
          );
      }
      const hashed = await rawGet(`${stack.relay.url}/${file}`, { 'accept-encoding': 'br' });
      assert.equal(hashed.headers['cache-control'], 'public, max-age=31536000, immutable');
      const again = await rawGet(`${stack.relay.url}/${file}`, {
        'accept-encoding': 'br',
        'if-none-match': String(hashed.headers.etag),
      });
      assert.equal(again.status, 304);
      assert.equal(again.body.length, 0);
    }
  });
});
