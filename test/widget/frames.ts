/**
 * A test page framing a page of the runner's other origin (the same server under its other name: localhost or
 * 127.0.0.1), which it cannot reach into: test/widget/pages/frame-reporter.ts in the framed page says where a part of
 * its element is, and the test clicks there with the real pointer.
 */
import { waitUntil } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';

/** The runner's other origin: the same server under the other name. */
export const otherOrigin = () =>
  location.origin.replace(/\/\/(localhost|127\.0\.0\.1):/, (_, host: string) =>
    host === 'localhost' ? '//127.0.0.1:' : '//localhost:',
  );

export interface Report {
  at: { x: number; y: number } | null;
  status: string;
  /** The element's `state` attribute. */
  state: string;
}

/** Asks the framed page where `part` (or, starting with `button`/`[`, a selector) is and what the status says. */
export function ask(frame: HTMLIFrameElement, part: string): Promise<Report> {
  return new Promise((resolve) => {
    const answer = (e: MessageEvent<Report>) => {
      if (e.source !== frame.contentWindow) return;
      removeEventListener('message', answer);
      resolve(e.data);
    };
    addEventListener('message', answer);
    // A page that does not answer (not loaded yet, or gone) is one with nothing shown.
    setTimeout(() => {
      removeEventListener('message', answer);
      resolve({ at: null, status: '', state: '' });
    }, 1_000);
    const question = /^(button|\[)/.test(part) ? { selector: part } : { part };
    frame.contentWindow!.postMessage(question, new URL(frame.src).origin);
  });
}

/** Clicks `part` in the frame with the real pointer, once it is shown. */
export async function clickIn(frame: HTMLIFrameElement, part: string): Promise<void> {
  let report: Report = { at: null, status: '', state: '' };
  await waitUntil(async () => (report = await ask(frame, part)).at !== null, `no ${part} in the frame`, {
    timeout: 5_000,
  }).catch((error: Error) => {
    throw new Error(`${error.message}; its status: "${report.status}"`);
  });
  const box = frame.getBoundingClientRect();
  await executeServerCommand('engine-click', { x: box.left + report.at!.x, y: box.top + report.at!.y });
}

/** Shows `src` in a frame at the top left of this page, and waits for it to load. */
export async function showFrame(src: string): Promise<HTMLIFrameElement> {
  const frame = document.createElement('iframe');
  frame.style.cssText = 'position:fixed;left:0;top:0;width:600px;height:500px;border:0';
  frame.src = src;
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  document.body.append(frame);
  await loaded;
  return frame;
}
