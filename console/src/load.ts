import { useEffect, useState } from "preact/hooks";

export type Loaded<T> = { state: "loading" } | { state: "loaded"; value: T } | { state: "failed"; error: Error };

/** Runs `load` whenever a value in `inputs` changes; an answer to an outdated run is dropped. */
export function useLoad<T>(load: () => Promise<T>, inputs: unknown[]): Loaded<T> {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: "loading" });
  useEffect(() => {
    let current = true;
    setLoaded({ state: "loading" });
    load().then(
      (value) => current && setLoaded({ state: "loaded", value }),
      (error: unknown) => current && setLoaded({ state: "failed", error: error instanceof Error ? error : new Error(String(error)) }),
    );
    return () => {
      current = false;
    };
  }, inputs);
  return loaded;
}
