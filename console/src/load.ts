import { useEffect, useState } from "preact/hooks";

export type Loaded<T> = { state: "loading" } | { state: "loaded"; value: T } | { state: "failed"; error: Error };

/**
 * Runs `load` whenever `inputs` change (compared as JSON); an answer to an outdated run is dropped. What
 * was loaded for other inputs is never returned: the render that follows a change (before the
 * effect starts the new run) already says "loading", so a page never shows new inputs beside the
 * old answer.
 */
export function useLoad<T>(load: () => Promise<T>, inputs: readonly unknown[]): Loaded<T> {
  const key = JSON.stringify(inputs);
  const [loaded, setLoaded] = useState<{ key: string; result: Loaded<T> }>({ key, result: { state: "loading" } });
  useEffect(() => {
    let current = true;
    load().then(
      (value) => current && setLoaded({ key, result: { state: "loaded", value } }),
      (error: unknown) =>
        current && setLoaded({ key, result: { state: "failed", error: error instanceof Error ? error : new Error(String(error)) } }),
    );
    return () => {
      current = false;
    };
  }, [key]);
  return loaded.key === key ? loaded.result : { state: "loading" };
}
