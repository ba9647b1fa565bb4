import { useEffect, useState } from "preact/hooks";

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

function currentRoute(): Route {
  const fragment = window.location.hash.replace(/^#\/?/, "");
  const [path = "", search = ""] = fragment.split("?", 2);
  return { segments: path.split("/").filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(search) };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const update = () => setRoute(currentRoute());
    window.addEventListener("hashchange", update);
    return () => window.removeEventListener("hashchange", update);
  }, []);
  return route;
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
