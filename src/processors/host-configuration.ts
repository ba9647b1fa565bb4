import type { HostConfigurationView } from "../domain/host-configurations/decider.ts";
import type { HostConfigurationFields, Processor } from "../domain/host-configurations/schemas.ts";

/** The view's merchant and settings typed for `processor`; a view of another processor is a caller bug. */
export function configurationFor<P extends Processor>(
  processor: P,
  view: HostConfigurationView,
): HostConfigurationFields<P> {
  if (view.processor !== processor) {
    throw new Error(`A ${view.processor} host configuration cannot be used with ${processor}.`);
  }
  // The view's fields are a union over processors that its `processor` does not discriminate; checked above.
  return view as unknown as HostConfigurationFields<P>;
}
