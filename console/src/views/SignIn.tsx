import { useState } from "preact/hooks";
import { ApiError, type Caller, callerOf } from "../api.ts";
import { ViewHeading } from "../components/common.tsx";
import { storeKey } from "../session.ts";

export function SignIn({ onSignedIn }: { onSignedIn: (caller: Caller) => void }) {
  const [key, setKey] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      const caller = await callerOf(key.trim());
      storeKey(key.trim());
      onSignedIn(caller);
    } catch (error) {
      setProblem(error instanceof ApiError && error.status === 401 ? "The API does not know this key, or it was revoked." : String(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main id="main" class="sign-in">
      <ViewHeading>Ledger console</ViewHeading>
      <p>Sign in with an API key. An admin key sees every client; a client key sees its own data, exactly as the API allows.</p>
      <form onSubmit={submit}>
        <label for="api-key">API key</label>
        <input
          id="api-key"
          type="password"
          autocomplete="off"
          spellcheck={false}
          required
          minLength={16}
          value={key}
          onInput={(event) => setKey(event.currentTarget.value)}
        />
        <p class="muted">Kept in this tab's session storage only: closing the tab forgets it.</p>
        <button type="submit" disabled={busy}>
          Sign in
        </button>
        {problem && (
          <p class="error" role="alert">
            {problem}
          </p>
        )}
      </form>
    </main>
  );
}
