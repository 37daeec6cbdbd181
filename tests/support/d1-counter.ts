/**
 * Wraps a D1 binding and counts round trips: each statement run (all/raw/first/run) and each
 * batch or exec is one request to D1. Used to hold loaders to their query budget.
 */
export function countingD1(d1: D1Database): { db: D1Database; trips: () => number } {
  let trips = 0;
  const originals = new WeakMap<object, D1PreparedStatement>();
  const RUNS = new Set<PropertyKey>(["all", "raw", "first", "run"]);

  const wrapStatement = (statement: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (prop === "bind") return (...args: unknown[]) => wrapStatement(target.bind(...args));
        if (RUNS.has(prop)) {
          return (...args: unknown[]) => {
            trips++;
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    originals.set(proxy, statement);
    return proxy;
  };

  // The same counting for the binding and for the D1 sessions the app opens on it (read replication).
  const handler: ProxyHandler<D1Database> = {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (prop === "withSession") {
        return (start?: string) => new Proxy(target.withSession(start) as unknown as D1Database, handler);
      }
      if (prop === "prepare") return (query: string) => wrapStatement(target.prepare(query));
      if (prop === "batch") {
        return (statements: D1PreparedStatement[]) => {
          trips++;
          return target.batch(statements.map((s) => originals.get(s) ?? s));
        };
      }
      if (prop === "exec") {
        return (query: string) => {
          trips++;
          return target.exec(query);
        };
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  };
  const db = new Proxy(d1, handler);
  return { db, trips: () => trips };
}
