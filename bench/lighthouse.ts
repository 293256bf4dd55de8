/**
 * Lighthouse's mobile run (its default: a Moto G Power's screen, Slow 4G and a 4× slower CPU, simulated) of the
 * merchant's page with the embed as the docs write it (bench/ready.ts's `/embed.html`): performance, accessibility,
 * best practices, and the layout shift. Lighthouse is no dependency of the project (it weighs tens of megabytes and
 * wants a newer Node than the project's floor): the bench installs it from the npm registry into bench/tmp on first use.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser } from 'puppeteer-core';
import { table } from './report.js';

const LIGHTHOUSE_VERSION = '13.5.0';
const PREFIX = fileURLToPath(new URL('./tmp/lighthouse/', import.meta.url));
const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;

export interface LighthouseResult {
  url: string;
  scores: Record<(typeof CATEGORIES)[number], number>;
  cls: number;
  lcpMs: number;
  /** The audits of the categories that did not pass, by id. */
  failed: string[];
}

type RunLighthouse = (
  url: string,
  flags: Record<string, unknown>,
) => Promise<{
  lhr: {
    categories: Record<string, { score: number; auditRefs: { id: string; weight: number }[] }>;
    audits: Record<string, { numericValue?: number; score: number | null }>;
  };
}>;

async function lighthouse(): Promise<RunLighthouse> {
  const entry = `${PREFIX}node_modules/lighthouse/core/index.js`;
  if (!existsSync(entry)) {
    execFileSync(
      'npm',
      ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', PREFIX, `lighthouse@${LIGHTHOUSE_VERSION}`],
      {
        stdio: 'inherit',
      },
    );
  }
  return ((await import(pathToFileURL(entry).href)) as { default: RunLighthouse }).default;
}

/** One mobile run of `url` in the bench's Chromium (a new tab of it). */
export async function lighthouseRun(browser: Browser, url: string): Promise<LighthouseResult> {
  const run = await lighthouse();
  const port = Number(new URL(browser.wsEndpoint()).port);
  const { lhr } = await run(url, { port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] });
  return {
    url,
    scores: Object.fromEntries(
      CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)]),
    ) as LighthouseResult['scores'],
    cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN,
    lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? NaN,
    failed: CATEGORIES.filter((c) => c !== 'performance').flatMap((c) =>
      (lhr.categories[c]?.auditRefs ?? [])
        .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
        .map((ref) => ref.id),
    ),
  };
}

/** Section 7 of the report. */
export function lighthouseSection(results: LighthouseResult[]): string {
  return [
    '## 7. Lighthouse, mobile',
    '',
    `Lighthouse ${LIGHTHOUSE_VERSION}'s default mobile run (simulated Slow 4G, 4 × CPU) of the merchant's page with the docs' embed ` +
      "(section 6's page: the hashed bundle from the relay with `integrity`, the two hints). Target: performance ≥ 95, " +
      'layout shift 0, accessibility and best practices 100.',
    '',
    table(
      ['run', 'performance', 'accessibility', 'best practices', 'CLS', 'LCP ms', 'failed audits'],
      results.map((r, i) => [
        String(i + 1),
        String(r.scores.performance),
        String(r.scores.accessibility),
        String(r.scores['best-practices']),
        r.cls.toFixed(3),
        String(Math.round(r.lcpMs)),
        r.failed.join(', ') || 'none',
      ]),
    ),
  ].join('\n');
}
