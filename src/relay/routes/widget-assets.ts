/** The built widget bundles (`/billing-pay.<hash>.js`, `/bundles.json`, …), for pages that load them from the relay. */
import { Hono } from 'hono';
import type { RelayContext } from '../http/context.js';
import { serveWidgetAssets } from '../assets/widget-assets.js';
import type { RouteDeps } from './deps.js';

export function widgetAssetRoutes({ widgetAssets }: RouteDeps): Hono<RelayContext> {
  const routes = new Hono<RelayContext>();
  routes.get('/:file{[\\w-]+(?:\\.[0-9a-f]{10})?\\.(?:js|json)}', serveWidgetAssets(widgetAssets));
  return routes;
}
