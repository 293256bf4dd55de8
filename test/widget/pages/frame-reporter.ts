/**
 * In a page a test shows in a frame of another origin, which it cannot reach into: answers the framing page's
 * `{part}` with where that part of `<billing-payment-methods>` is (the centre of its box, in the frame's viewport) and
 * what the element's status says, so the test clicks it with the real pointer and reads the outcome.
 */
addEventListener('message', (e: MessageEvent<{ part: string }>) => {
  const root = document.querySelector('billing-payment-methods')?.shadowRoot;
  const box = root?.querySelector(`[part~="${e.data.part}"]`)?.getBoundingClientRect();
  const status = root?.querySelector('[part="status"]')?.textContent?.trim() ?? '';
  (e.source as Window).postMessage(
    { at: box && box.width ? { x: box.left + box.width / 2, y: box.top + box.height / 2 } : null, status },
    { targetOrigin: e.origin },
  );
});
