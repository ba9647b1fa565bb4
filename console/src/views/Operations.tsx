import { apiGet, type Caller } from "../api.ts";
import { Amount, Loading, StatusBadge, TableRegion, ViewHeading } from "../components/common.tsx";
import { formatSeconds, formatTime, shortId } from "../format.ts";
import { useLoad } from "../load.ts";
import { linkTo } from "../router.ts";
import type { Client, OperationsStatus, Page, Settlement } from "../types.ts";
import { FailingDeliveries } from "./FailingDeliveries.tsx";

/** Is everything flowing, and what is stuck: what the key may see of it. */
export function Operations({ caller }: { caller: Caller }) {
  return (
    <>
      <ViewHeading>Operations</ViewHeading>
      {caller.role === "admin" && <ServiceStatus />}
      <Settlements />
      <FailingDeliveries />
      <LimitsAndUsage caller={caller} />
    </>
  );
}

function ServiceStatus() {
  const status = useLoad(() => apiGet<OperationsStatus>("/operations/status"), []);
  return (
    <Loading loaded={status}>
      {({ checkedAt, projections, pending, resolver, jobs, webhooks, settlements }) => (
        <>
          <p class="muted">As of {formatTime(checkedAt)}.</p>
          <div class="cards">
            <section class="card" aria-labelledby="lag-title">
              <h2 id="lag-title">Projection lag</h2>
              <ul class="plain">
                {projections.map((lag) => (
                  <li key={lag.projection}>
                    {lag.projection}:{" "}
                    {lag.positionsBehind === "0" ? (
                      <StatusBadge status="caught up" />
                    ) : (
                      `${lag.positionsBehind} positions, ${formatSeconds(lag.secondsBehind)} behind`
                    )}
                  </li>
                ))}
              </ul>
            </section>
            <section class="card" aria-labelledby="pending-title">
              <h2 id="pending-title">Pending transactions by age</h2>
              <ul class="plain">
                {Object.entries(pending.byAge).map(([age, count]) => (
                  <li key={age}>
                    {age}: {count}
                  </li>
                ))}
              </ul>
              <p>
                Oldest: {formatSeconds(pending.oldestSeconds)}.{" "}
                <a href={linkTo(["transactions"], { status: "pending" })}>See pending transactions</a>
              </p>
            </section>
            <section class="card" aria-labelledby="resolver-title">
              <h2 id="resolver-title">Resolver and jobs</h2>
              <p>
                Owed: {resolver.owed.inquire} to ask about, {resolver.owed.reverse} to reverse, {resolver.owed.watch} watched.
              </p>
              <p>{describeLastPass(resolver.lastPass)}</p>
              <ul class="plain">
                {jobs.map((job) => (
                  <li key={job.name}>
                    {job.name}: {job.active ? "running" : "idle"}, last seen {formatTime(job.lastSeenAt)}
                  </li>
                ))}
              </ul>
            </section>
            <section class="card" aria-labelledby="queues-title">
              <h2 id="queues-title">Webhooks and reconciliation</h2>
              <p>
                {webhooks.pending} webhook deliveries owed; the oldest waited {formatSeconds(webhooks.oldestSeconds)}.
              </p>
              <p>
                {settlements.mismatched === 0 ? "No" : settlements.mismatched} mismatched settlement batch
                {settlements.mismatched === 1 ? "" : "es"}.
              </p>
            </section>
          </div>
        </>
      )}
    </Loading>
  );
}

/** "Last pass: <time>: 1 approved, 2 still pending.", naming only the results the pass had. */
function describeLastPass(lastPass: OperationsStatus["resolver"]["lastPass"]): string {
  if (!lastPass) return "No pass has done anything yet.";
  const results = Object.entries(lastPass.counts)
    .filter(([, count]) => count > 0)
    .map(([result, count]) => `${count} ${result.replaceAll("_", " ")}`);
  return `Last pass: ${formatTime(lastPass.at)}: ${results.join(", ")}.`;
}

function Settlements() {
  const batches = useLoad(() => apiGet<Page<Settlement>>("/settlements", { limit: 20 }), []);
  return (
    <section aria-labelledby="settlements-title">
      <h2 id="settlements-title">Settlement batches</h2>
      <Loading loaded={batches}>
        {({ data }) =>
          data.length === 0 ? (
            <p class="muted">No batch closed yet.</p>
          ) : (
            <TableRegion label="Settlement batches, newest first">
              <thead>
                <tr>
                  <th scope="col">Closed</th>
                  <th scope="col">Processor</th>
                  <th scope="col">Reconciliation</th>
                  <th scope="col">Transactions</th>
                  <th scope="col" class="number">
                    Net
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.map((batch) => (
                  <tr key={batch.id} data-settlement-id={batch.id}>
                    <td>{formatTime(batch.closedAt)}</td>
                    <td>{batch.processor}</td>
                    <td>
                      <StatusBadge status={batch.status} />
                    </td>
                    <td>{batch.transactionCount}</td>
                    <td class="number">
                      {batch.totals.map((total) => (
                        <div key={total.currency}>
                          <Amount amount={total.netAmount} currency={total.currency} />
                        </div>
                      ))}
                    </td>
                  </tr>
                ))}
              </tbody>
            </TableRegion>
          )
        }
      </Loading>
    </section>
  );
}

/** A limit's amount; "∞" where the client has none. */
function LimitAmount({ amount, currency }: { amount: number | undefined; currency: string }) {
  return amount === undefined ? <span>∞</span> : <Amount amount={amount} currency={currency} />;
}

/** Every client's limits for the admin; a client key's own. */
function LimitsAndUsage({ caller }: { caller: Caller }) {
  const clients = useLoad(
    async () =>
      caller.role === "admin"
        ? apiGet<Page<Client>>("/clients", { limit: 100 })
        : { data: [await apiGet<Client>(`/clients/${caller.clientId}`)], nextCursor: null },
    [caller],
  );
  return (
    <section aria-labelledby="limits-title">
      <h2 id="limits-title">Limits and today's usage</h2>
      <Loading loaded={clients}>
        {({ data }) => (
          <TableRegion label="Limits and today's usage per client">
            <thead>
              <tr>
                <th scope="col">Client</th>
                <th scope="col">Currency</th>
                <th scope="col" class="number">
                  Per transaction
                </th>
                <th scope="col" class="number">
                  Used today / daily amount
                </th>
                <th scope="col" class="number">
                  Count today / daily count
                </th>
              </tr>
            </thead>
            <tbody>
              {data.flatMap((client) =>
                client.limits.length === 0
                  ? [
                      <tr key={client.id}>
                        <td title={client.id}>{client.name}</td>
                        <td colSpan={4} class="muted">
                          no limits
                        </td>
                      </tr>,
                    ]
                  : client.limits.map((limit) => (
                      <tr key={`${client.id} ${limit.currency}`}>
                        <td title={client.id}>
                          {client.name} <span class="muted mono">…{shortId(client.id)}</span>
                        </td>
                        <td>{limit.currency}</td>
                        <td class="number">
                          <LimitAmount amount={limit.maxAmountPerTransaction} currency={limit.currency} />
                        </td>
                        <td class="number">
                          <Amount amount={limit.today.usedAmount} currency={limit.currency} /> /{" "}
                          <LimitAmount amount={limit.dailyAmount} currency={limit.currency} />
                        </td>
                        <td class="number">
                          {limit.today.usedCount} / {limit.dailyCount ?? "∞"}
                        </td>
                      </tr>
                    )),
              )}
            </tbody>
          </TableRegion>
        )}
      </Loading>
    </section>
  );
}
