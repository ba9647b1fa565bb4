import { useState } from "preact/hooks";
import { apiGet, type Role } from "../api.ts";
import { Loading, TableRegion, ViewHeading } from "../components/common.tsx";
import { formatTime, shortId } from "../format.ts";
import { useLoad } from "../load.ts";
import { linkTo } from "../router.ts";
import type { HostConfiguration, JsonObject, Page } from "../types.ts";

const processors = ["processor_a", "processor_b", "processor_c", "processor_d"];

async function listConfigurations(): Promise<HostConfiguration[]> {
  const pages = await Promise.all(
    processors.map((processor) => apiGet<Page<HostConfiguration>>(`/host-configurations/${processor}`, { limit: 100 })),
  );
  return pages.flatMap((page) => page.data);
}

export function HostConfigurations({ role, selected }: { role: Role; selected: string | undefined }) {
  const configurations = useLoad(listConfigurations, []);
  return (
    <>
      <ViewHeading>Host configurations</ViewHeading>
      <Loading loaded={configurations}>
        {(list) => {
          const chosen = list.find((configuration) => configuration.id === selected);
          return (
            <>
              {list.length === 0 ? (
                <p class="muted">No host configuration yet.</p>
              ) : (
                <TableRegion label="Host configurations">
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Processor</th>
                      {role === "admin" && <th scope="col">Client</th>}
                      <th scope="col">Enabled</th>
                      <th scope="col">Version</th>
                      <th scope="col">Updated</th>
                    </tr>
                  </thead>
                  <tbody>
                    {list.map((configuration) => (
                      <tr key={configuration.id} aria-current={configuration.id === selected ? "true" : undefined}>
                        <td>
                          <a href={linkTo(["host-configurations", configuration.id])}>{configuration.name}</a>
                        </td>
                        <td>{configuration.processor}</td>
                        {role === "admin" && <td class="mono">…{shortId(configuration.clientId)}</td>}
                        <td>{configuration.enabled ? "yes" : "no"}</td>
                        <td>{configuration.version}</td>
                        <td>{formatTime(configuration.updatedAt)}</td>
                      </tr>
                    ))}
                  </tbody>
                </TableRegion>
              )}
              {selected && !chosen && <p class="error">Not found: it does not exist, or this key may not see it.</p>}
              {chosen && <Versions key={chosen.id} configuration={chosen} />}
            </>
          );
        }}
      </Loading>
    </>
  );
}

function Versions({ configuration }: { configuration: HostConfiguration }) {
  const versions = useLoad(
    () =>
      apiGet<{ data: HostConfiguration[] }>(`/host-configurations/${configuration.processor}/${configuration.id}/versions`).then(
        (answer) => answer.data,
      ),
    [configuration.id],
  );
  return (
    <section aria-labelledby="versions-title">
      <h2 id="versions-title">Versions of {configuration.name}</h2>
      <Loading loaded={versions}>{(list) => <VersionDiff versions={list} />}</Loading>
    </section>
  );
}

function VersionDiff({ versions }: { versions: HostConfiguration[] }) {
  const newest = versions.length;
  const [left, setLeft] = useState(Math.max(1, newest - 1));
  const [right, setRight] = useState(newest);
  const older = versions.find((version) => version.version === left);
  const newer = versions.find((version) => version.version === right);
  const picker = (id: string, label: string, value: number, choose: (version: number) => void) => (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => choose(Number(event.currentTarget.value))}>
        {versions.map((version) => (
          <option key={version.version} value={version.version}>
            version {version.version} ({formatTime(version.updatedAt)})
          </option>
        ))}
      </select>
    </div>
  );
  if (!older || !newer) return <p class="muted">No versions.</p>;
  const leftFields = flatten(older);
  const rightFields = flatten(newer);
  const paths = [...new Set([...leftFields.keys(), ...rightFields.keys()])].sort();
  return (
    <>
      <div class="filters">
        {picker("version-left", "Compare", left, setLeft)}
        {picker("version-right", "with", right, setRight)}
      </div>
      <TableRegion label={`Version ${left} and version ${right} side by side`}>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Version {left}</th>
            <th scope="col">Version {right}</th>
          </tr>
        </thead>
        <tbody>
          {paths.map((path) => {
            const before = leftFields.get(path) ?? "(absent)";
            const after = rightFields.get(path) ?? "(absent)";
            const changed = before !== after;
            return (
              <tr key={path} class={changed ? "changed" : undefined} data-changed={changed ? "true" : undefined}>
                <th scope="row" class="mono">
                  {changed && <span aria-label="changed">≠ </span>}
                  {path}
                </th>
                <td>{before}</td>
                <td>{after}</td>
              </tr>
            );
          })}
        </tbody>
      </TableRegion>
    </>
  );
}

/**
 * Every leaf of a configuration under its dotted path. The API never returns secrets, only
 * whether they are configured, and the console says no more than that.
 */
function flatten(value: unknown, path = "", fields = new Map<string, string>()): Map<string, string> {
  if (path === "credentials") {
    fields.set(path, (value as { configured?: boolean } | null)?.configured ? "configured" : "not configured");
  } else if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    for (const [key, child] of Object.entries(value as JsonObject)) flatten(child, path ? `${path}.${key}` : key, fields);
  } else {
    fields.set(path, typeof value === "string" ? value : JSON.stringify(value));
  }
  return fields;
}
