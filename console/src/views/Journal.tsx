import { useState } from "preact/hooks";
import { apiGet, type Role } from "../api.ts";
import { Amount, Loading, StatusBadge, TableRegion, ViewHeading } from "../components/common.tsx";
import { formatAmount, formatTime } from "../format.ts";
import { useLoad } from "../load.ts";
import { navigate } from "../router.ts";
import type { JournalAccount, JournalBalance, JournalLine, TrialBalance } from "../types.ts";

/** The accounts a balance table shows, with their names for people; `holds_offset` only mirrors `holds`. */
const shownAccounts: { account: JournalAccount; label: string }[] = [
  { account: "processor_receivable", label: "Owed by the processor" },
  { account: "sales", label: "Sales" },
  { account: "refunds", label: "Refunds" },
  { account: "settled_funds", label: "Settled funds" },
  { account: "settlement_differences", label: "Settlement differences" },
  { account: "holds", label: "Held on cards" },
];

async function loadBooks(asOf: string | undefined) {
  const [balances, trial] = await Promise.all([
    apiGet<{ asOf: string; data: JournalBalance[] }>("/journal/balances", { asOf }),
    apiGet<{ asOf: string; data: TrialBalance[] }>("/journal/trial-balance", { asOf }),
  ]);
  return { asOf: balances.asOf, balances: balances.data, trialBalances: trial.data };
}

/** Each currency's balances per processor and account, added up over the clients the key sees. */
function byCurrencyAndProcessor(balances: JournalBalance[]): Map<string, Map<string, Map<JournalAccount, number>>> {
  const books = new Map<string, Map<string, Map<JournalAccount, number>>>();
  for (const { currency, processor, account, balance } of balances) {
    const processors = books.get(currency) ?? new Map<string, Map<JournalAccount, number>>();
    const accounts = processors.get(processor) ?? new Map<JournalAccount, number>();
    accounts.set(account, (accounts.get(account) ?? 0) + balance);
    processors.set(processor, accounts);
    books.set(currency, processors);
  }
  return books;
}

/** The books: what each processor owes, what was sold, refunded and settled, per currency, as of now or any moment. */
export function Journal({ role, asOf }: { role: Role; asOf: string | undefined }) {
  const books = useLoad(() => loadBooks(asOf), [asOf]);
  return (
    <>
      <ViewHeading>Journal</ViewHeading>
      <p class="muted">
        {role === "admin" ? "Every client's books, added up." : "Your books."} Each balance is folded from the journal's balanced entries; a
        payment's timeline shows the entries each of its events posted.
      </p>
      <AsOfForm asOf={asOf} />
      <Loading loaded={books}>
        {({ asOf: at, balances, trialBalances }) => {
          const currencies = [...byCurrencyAndProcessor(balances)].sort(([a], [b]) => a.localeCompare(b));
          return (
            <>
              <p>As of {formatTime(at)}.</p>
              {currencies.length === 0 && <p class="muted">Nothing posted yet.</p>}
              {currencies.map(([currency, processors]) => (
                <section key={currency} aria-labelledby={`books-${currency}`} data-currency={currency}>
                  <h2 id={`books-${currency}`}>{currency}</h2>
                  <TrialBalanceVerdict trial={trialBalances.find((each) => each.currency === currency)} currency={currency} />
                  <TableRegion label={`Balances in ${currency} per processor`}>
                    <thead>
                      <tr>
                        <th scope="col">Processor</th>
                        {shownAccounts.map(({ account, label }) => (
                          <th key={account} scope="col" class="number">
                            {label}
                          </th>
                        ))}
                      </tr>
                    </thead>
                    <tbody>
                      {[...processors].sort(([a], [b]) => a.localeCompare(b)).map(([processor, accounts]) => (
                        <tr key={processor} data-processor={processor}>
                          <th scope="row">{processor}</th>
                          {shownAccounts.map(({ account }) => (
                            <td key={account} class="number" data-account={account}>
                              <Amount amount={accounts.get(account) ?? 0} currency={currency} />
                            </td>
                          ))}
                        </tr>
                      ))}
                    </tbody>
                  </TableRegion>
                </section>
              ))}
            </>
          );
        }}
      </Loading>
    </>
  );
}

function TrialBalanceVerdict({ trial, currency }: { trial: TrialBalance | undefined; currency: string }) {
  if (!trial) return null;
  return (
    <p data-testid={`trial-balance-${currency}`}>
      Trial balance: debits {formatAmount(trial.debit, currency)}, credits {formatAmount(trial.credit, currency)}{" "}
      <StatusBadge status={trial.balanced ? "balanced" : "not balanced"} />
    </p>
  );
}

/** Balances as of a moment: a date (to the end of that UTC day) or a timestamp, kept in the view's address. */
function AsOfForm({ asOf }: { asOf: string | undefined }) {
  const [typed, setTyped] = useState(asOf ?? "");
  return (
    <form
      class="search"
      onSubmit={(event) => {
        event.preventDefault();
        navigate(["journal"], { asOf: typed.trim() || undefined });
      }}
    >
      <label for="journal-as-of">As of (UTC: 2026-12-31, or 2026-12-31T18:00:00Z; now when empty)</label>
      <input id="journal-as-of" value={typed} onInput={(input) => setTyped(input.currentTarget.value)} />
      <button type="submit">Show</button>
    </form>
  );
}

/** An entry's lines as a bookkeeper reads them: "Dr processor_receivable 10.00 USD". */
export function EntryLines({ lines }: { lines: JournalLine[] }) {
  return (
    <ul class="plain entry-lines">
      {lines.map((line) => (
        <li key={`${line.account}-${line.debit}-${line.credit}`}>
          {line.debit > 0 ? "Dr" : "Cr"} {line.account} <Amount amount={line.debit > 0 ? line.debit : line.credit} currency={line.currency} />
        </li>
      ))}
    </ul>
  );
}
