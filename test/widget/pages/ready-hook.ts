/**
 * In an e2e embed page shown in a frame of the test's origin (`?hook=1`), before the bundle: hands the widget's ready
 * event to the test page's `onFrameReady`, inside the event, however early it comes (before the frame's load event, too).
 */
document.addEventListener(
  'billing-pay-ready',
  (e) => (parent as Window & { onFrameReady?: (e: Event) => void }).onFrameReady?.(e),
  { once: true },
);
