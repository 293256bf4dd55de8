/**
 * In a page a test shows in a frame of another origin, which it cannot reach into: answers the framing page's
 * `{part}` (or `{selector}`) with where that part of the page's `<billing-payment-methods>` or `<billing-pay>` is (the centre of its box,
 * in the frame's viewport) and what the element's status and `state` say, so the test clicks it with the real pointer and reads
 * the outcome.
 */
addEventListener('message', (e: MessageEvent<{ part?: string; selector?: string }>) => {
  const el = document.querySelector('billing-payment-methods, billing-pay');
  const root = el?.shadowRoot;
  const box = root?.querySelector(e.data.selector ?? `[part~="${e.data.part}"]`)?.getBoundingClientRect();
  const status = root?.querySelector('[part="status"]')?.textContent?.trim() ?? '';
  (e.source as Window).postMessage(
    {
      at: box && box.width ? { x: box.left + box.width / 2, y: box.top + box.height / 2 } : null,
      status,
      state: el?.getAttribute('state') ?? '',
    },
    { targetOrigin: e.origin },
  );
});
