import { useEffect, useState } from "preact/hooks";
import { type Caller, callerOf, type Role, SIGNED_OUT_EVENT } from "./api.ts";
import { linkTo, useRoute } from "./router.ts";
import { forgetKey, readKey } from "./session.ts";
import { HostConfigurations } from "./views/HostConfigurations.tsx";
import { Journal } from "./views/Journal.tsx";
import { Operations } from "./views/Operations.tsx";
import { SignIn } from "./views/SignIn.tsx";
import { Timeline } from "./views/Timeline.tsx";
import { Transactions } from "./views/Transactions.tsx";

type Session = { state: "checking" } | { state: "signed-out" } | { state: "signed-in"; caller: Caller };

const sections = [
  { segment: "transactions", label: "Transactions" },
  { segment: "journal", label: "Journal" },
  { segment: "operations", label: "Operations" },
  { segment: "host-configurations", label: "Host configurations" },
] as const;

export function App() {
  const [session, setSession] = useState<Session>(() => (readKey() ? { state: "checking" } : { state: "signed-out" }));

  useEffect(() => {
    const signOut = () => setSession({ state: "signed-out" });
    window.addEventListener(SIGNED_OUT_EVENT, signOut);
    const key = readKey();
    // A reload keeps the tab's key: ask the API again what it may do.
    if (key) callerOf(key).then((caller) => setSession({ state: "signed-in", caller }), signOut);
    return () => window.removeEventListener(SIGNED_OUT_EVENT, signOut);
  }, []);

  if (session.state === "checking") return <p class="muted">Checking the key…</p>;
  if (session.state === "signed-out") return <SignIn onSignedIn={(caller) => setSession({ state: "signed-in", caller })} />;

  const signOut = () => {
    forgetKey();
    setSession({ state: "signed-out" });
  };
  return <Console caller={session.caller} onSignOut={signOut} />;
}

function Console({ caller, onSignOut }: { caller: Caller; onSignOut: () => void }) {
  const role = caller.role;
  const route = useRoute();
  const [section = "transactions", id] = route.segments;
  return (
    <>
      <button type="button" class="skip-link" onClick={() => document.querySelector<HTMLElement>("main h1")?.focus()}>
        Skip to content
      </button>
      <header class="top-bar">
        <span class="brand">Ledger console</span>
        <nav aria-label="Sections">
          {sections.map(({ segment, label }) => (
            <a key={segment} href={linkTo([segment])} aria-current={section === segment ? "page" : undefined}>
              {label}
            </a>
          ))}
        </nav>
        <span class="role" data-testid="role">
          {role === "admin" ? "Admin key: every client" : "Client key: own data"}
        </span>
        <button type="button" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <main id="main">
        <CurrentView section={section} id={id} query={route.query} caller={caller} />
      </main>
    </>
  );
}

function CurrentView({ section, id, query, caller }: { section: string; id: string | undefined; query: URLSearchParams; caller: Caller }) {
  const role: Role = caller.role;
  switch (section) {
    case "transactions":
      return id ? <Timeline key={id} id={id} role={role} /> : <Transactions query={query} role={role} />;
    case "journal":
      return <Journal role={role} asOf={query.get("asOf") ?? undefined} />;
    case "operations":
      return <Operations caller={caller} />;
    case "host-configurations":
      return <HostConfigurations role={role} selected={id} />;
    default:
      return <p class="error">There is no such view. Choose one above.</p>;
  }
}
