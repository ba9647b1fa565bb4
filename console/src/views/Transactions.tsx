import { useState } from "preact/hooks";
import { apiGet, type Role } from "../api.ts";
import { Amount, Loading, StatusBadge, TableRegion, ViewHeading } from "../components/common.tsx";
import { formatTime, parseAmount, shortId } from "../format.ts";
import { useLoad } from "../load.ts";
import { linkTo, navigate } from "../router.ts";
import { type Client, type Page, type Transaction, transactionStates } from "../types.ts";

/** Every filter of `GET /v1/transactions`, as the form and the URL fragment name them. */
const filterNames = [
  "clientId",
  "userId",
  "type",
  "status",
  "state",
  "processor",
  "currency",
  "reference",
  "createdFrom",
  "createdTo",
  "amountMin",
  "amountMax",
  "limit",
] as const;
type Filters = Partial<Record<(typeof filterNames)[number], string>>;

const choices = {
  type: ["authorization", "capture", "sale", "refund", "void"],
  status: ["pending", "approved", "declined", "failed"],
  state: [...transactionStates],
  processor: ["processor_a", "processor_b", "processor_c", "processor_d"],
  // The empty choice is the API's default page size, 20.
  limit: ["10", "50", "100"],
};

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function filtersOf(query: URLSearchParams): Filters {
  return Object.fromEntries(filterNames.flatMap((name) => (query.get(name) ? [[name, query.get(name)!]] : [])));
}

/**
 * The API's query for the filters: the amounts, typed in the major unit the table shows, in the
 * currency's minor unit. An amount means something only in one currency: without one, or
 * unreadable, it is a problem to show, never a guess.
 */
function historyQueryOf(filters: Filters): { query: Filters } | { problem: string } {
  const amounts = (["amountMin", "amountMax"] as const).filter((name) => filters[name] !== undefined);
  if (amounts.length === 0) return { query: filters };
  const currency = filters.currency?.toUpperCase();
  if (!currency) return { problem: "Choose a currency to filter by amount: amounts are read in its units, as the table shows them." };
  const query: Filters = { ...filters, currency };
  for (const name of amounts) {
    const parsed = parseAmount(filters[name]!, currency);
    if ("problem" in parsed) return parsed;
    query[name] = String(parsed.amount);
  }
  return { query };
}

export function Transactions({ query, role }: { query: URLSearchParams; role: Role }) {
  const filters = filtersOf(query);
  const cursor = query.get("cursor") ?? undefined;
  const page = Number(query.get("page") ?? "1");
  const history = useLoad(() => {
    const asked = historyQueryOf(filters);
    if ("problem" in asked) return Promise.reject(new Error(asked.problem));
    return apiGet<Page<Transaction>>("/transactions", { ...asked.query, cursor });
  }, [query.toString()]);
  const clients = useLoad(
    () => (role === "admin" ? apiGet<Page<Client>>("/clients", { limit: 100 }).then((list) => list.data) : Promise.resolve([])),
    [role],
  );
  const clientNames = new Map(clients.state === "loaded" ? clients.value.map((client) => [client.id, client.name]) : []);

  return (
    <>
      <ViewHeading>Transactions</ViewHeading>
      <Search />
      <FilterForm filters={filters} clients={clients.state === "loaded" ? clients.value : []} showClients={role === "admin"} />
      <Loading loaded={history}>
        {({ data, nextCursor }) => (
          <>
            <p class="muted" aria-live="polite">
              Page {page}: {data.length} transaction{data.length === 1 ? "" : "s"}, newest first.
            </p>
            {data.length > 0 && (
              <TableRegion label="Transactions">
                <thead>
                  <tr>
                    <th scope="col">Created</th>
                    <th scope="col">Transaction</th>
                    <th scope="col">Type</th>
                    <th scope="col">State</th>
                    <th scope="col" class="number">
                      Amount
                    </th>
                    <th scope="col">Processor</th>
                    <th scope="col">User</th>
                    <th scope="col">Reference</th>
                    {role === "admin" && <th scope="col">Client</th>}
                  </tr>
                </thead>
                <tbody>
                  {data.map((transaction) => (
                    <tr key={transaction.id} data-transaction-id={transaction.id}>
                      <td>{formatTime(transaction.createdAt)}</td>
                      <td>
                        <a href={linkTo(["transactions", transaction.id])} class="mono" title={transaction.id}>
                          …{shortId(transaction.id)}
                        </a>
                      </td>
                      <td>{transaction.type}</td>
                      <td>
                        <StatusBadge status={transaction.state} />
                      </td>
                      <td class="number">
                        <Amount amount={transaction.amount} currency={transaction.currency} />
                      </td>
                      <td>{transaction.processor}</td>
                      <td>{transaction.userId}</td>
                      <td>{transaction.reference ?? ""}</td>
                      {role === "admin" && <td>{clientNames.get(transaction.clientId) ?? shortId(transaction.clientId)}</td>}
                    </tr>
                  ))}
                </tbody>
              </TableRegion>
            )}
            <nav class="pager" aria-label="Pages">
              {page > 1 && (
                <button type="button" onClick={() => window.history.back()}>
                  Previous page
                </button>
              )}
              {nextCursor && (
                <a class="button" href={linkTo(["transactions"], { ...filters, cursor: nextCursor, page: String(page + 1) })}>
                  Next page
                </a>
              )}
            </nav>
          </>
        )}
      </Loading>
    </>
  );
}

/** A transaction id opens its timeline; anything else is looked for as a reference. */
function Search() {
  const [term, setTerm] = useState("");
  const submit = (event: Event) => {
    event.preventDefault();
    const value = term.trim();
    if (!value) return;
    if (uuid.test(value)) navigate(["transactions", value.toLowerCase()]);
    else navigate(["transactions"], { reference: value });
  };
  return (
    <form class="search" role="search" onSubmit={submit}>
      <label for="search">Find a transaction by id or reference</label>
      <input id="search" type="search" value={term} onInput={(event) => setTerm(event.currentTarget.value)} />
      <button type="submit">Find</button>
    </form>
  );
}

function FilterForm({ filters, clients, showClients }: { filters: Filters; clients: Client[]; showClients: boolean }) {
  const submit = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    navigate(["transactions"], Object.fromEntries(filterNames.map((name) => [name, String(form.get(name) ?? "").trim()])));
  };
  const text = (name: keyof Filters, label: string, hint?: string) => (
    <div class="field">
      <label for={`filter-${name}`}>{label}</label>
      <input id={`filter-${name}`} name={name} defaultValue={filters[name] ?? ""} placeholder={hint} />
    </div>
  );
  // A select shows its filter through its options' `selected`: Preact gives a select's
  // `defaultValue` to no property, so the choice would not show.
  const select = (name: keyof typeof choices, label: string) => (
    <div class="field">
      <label for={`filter-${name}`}>{label}</label>
      <select id={`filter-${name}`} name={name}>
        <option value="">{name === "limit" ? "20" : "any"}</option>
        {choices[name].map((choice) => (
          <option key={choice} value={choice} selected={choice === filters[name]}>
            {choice}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    // Keyed by the filters, so the fields show them again after back and forward.
    <form key={JSON.stringify(filters)} class="filters" onSubmit={submit} aria-label="Filters">
      {showClients && (
        <div class="field">
          <label for="filter-clientId">Client</label>
          <select id="filter-clientId" name="clientId">
            <option value="">every client</option>
            {clients.map((client) => (
              <option key={client.id} value={client.id} selected={client.id === filters.clientId}>
                {client.name}
              </option>
            ))}
          </select>
        </div>
      )}
      {select("type", "Type")}
      {select("status", "Status")}
      {select("state", "State")}
      {select("processor", "Processor")}
      {text("currency", "Currency", "USD")}
      {text("userId", "User")}
      {text("reference", "Reference")}
      {text("createdFrom", "Created from", "2025-01-31 or ISO time")}
      {text("createdTo", "Created to", "2025-01-31 or ISO time")}
      {text("amountMin", "Amount at least", "10.99, in the currency")}
      {text("amountMax", "Amount at most", "10.99, in the currency")}
      {select("limit", "Per page")}
      <div class="actions">
        <button type="submit">Apply filters</button>
        <a class="button secondary" href={linkTo(["transactions"])}>
          Clear
        </a>
      </div>
    </form>
  );
}
