/** `processor_a` as it is spelled inside an operationId: `ProcessorA` (`createProcessorAHostConfiguration`). */
export function pascalCase(snakeCase: string): string {
  return snakeCase
    .split("_")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join("");
}
