import type { FastifyInstance, FastifyRequest } from "fastify";
import FindMyWay, { type HTTPMethod } from "find-my-way";

/**
 * Which methods a path answers: a copy of the routes in a router of their own (fastify's router
 * finds a route for one method only), so that a known path called with another method can be
 * told apart from an unknown path.
 */
export function trackAllowedMethods(app: FastifyInstance): (request: FastifyRequest) => string[] {
  const routes = FindMyWay();
  const methods = new Set<HTTPMethod>();
  app.addHook("onRoute", (route) => {
    for (const method of [route.method].flat() as HTTPMethod[]) {
      if (routes.hasRoute(method, route.url)) continue;
      routes.on(method, route.url, () => {});
      methods.add(method);
    }
  });
  return (request) => {
    const path = request.url.split("?")[0] ?? "/";
    return [...methods].filter((method) => routes.find(method, path) !== null).sort();
  };
}
