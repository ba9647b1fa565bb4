import { useEffect, useMemo, useState } from "preact/hooks";

/**
 * Views live in the URL's fragment (`#/transactions/<id>`, `#/transactions?status=approved`), so
 * a page reload or a shared link opens the same view. The fragment never reaches the server, and
 * it never holds the API key.
 */
export interface Route {
  /** The path's segments: `["transactions", "<id>"]`. */
  segments: string[];
  query: URLSearchParams;
}

type QueryValues = Record<string, string | undefined>;

function routeOf(hash: string): Route {
  const fragment = hash.replace(/^#\/?/, "");
  const [path = "", search = ""] = fragment.split("?", 2);
  return { segments: path.split("/").filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(search) };
}

export function useRoute(): Route {
  const [hash, setHash] = useState(() => window.location.hash);
  useEffect(() => {
    const update = () => setHash(window.location.hash);
    window.addEventListener("hashchange", update);
    // The effect runs after the first paint: a fragment changed before it (a link followed at
    // once after signing in) fired its hashchange with no one listening.
    update();
    return () => window.removeEventListener("hashchange", update);
  }, []);
  return useMemo(() => routeOf(hash), [hash]);
}

/** The link to a view: `linkTo(["transactions", id])`, `linkTo(["transactions"], { status: "approved" })`. */
export function linkTo(segments: string[], query: QueryValues = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value) params.set(name, value);
  const search = params.size > 0 ? `?${params}` : "";
  return `#/${segments.map(encodeURIComponent).join("/")}${search}`;
}

export function navigate(segments: string[], query: QueryValues = {}): void {
  window.location.hash = linkTo(segments, query);
}
