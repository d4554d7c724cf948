// Hash routes: #/<view>?<view's parameters>. A hash route needs no server support (the app is
// static files) and keeps the whole view state in a link. The first page's links (#lab?...) are
// redirected to #/lab?..., and an empty hash to the default view.

export interface Route {
  view: string;
  params: URLSearchParams;
}

export type Parsed = { route: Route } | { redirect: string };

export function routeHash(view: string, params?: URLSearchParams): string {
  const query = params?.toString() ?? '';
  return query ? `#/${view}?${query}` : `#/${view}`;
}

export function parseHash(hash: string, defaultView: string): Parsed {
  const text = hash.startsWith('#') ? hash.slice(1) : hash;
  if (text === '' || text === '/') return { redirect: routeHash(defaultView) };
  if (!text.startsWith('/')) {
    // Legacy "#lab?..." (and "#lab"): same parameters under the new route.
    const m = /^([a-z0-9-]+)(?:\?(.*))?$/.exec(text);
    if (m) return { redirect: routeHash(m[1], new URLSearchParams(m[2] ?? '')) };
    return { redirect: routeHash(defaultView) };
  }
  const at = text.indexOf('?');
  const view = decodeURIComponent(at < 0 ? text.slice(1) : text.slice(1, at)).replace(/\/+$/, '');
  return { route: { view, params: new URLSearchParams(at < 0 ? '' : text.slice(at + 1)) } };
}
