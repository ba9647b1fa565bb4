import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

const moduleState = ["Program", "Program > ExportNamedDeclaration"].flatMap((scope) => [
  {
    selector: `${scope} > VariableDeclaration[kind!="const"]`,
    message: "No module-level mutable state: make it at service start (src/service.ts) and pass it on a context.",
  },
  {
    selector: `${scope} > VariableDeclaration > VariableDeclarator > NewExpression[arguments.length=0][callee.name=/^(Map|Set|WeakMap|WeakSet)$/]`,
    message: "No module-level registry or cache: make it at service start (src/service.ts) and pass it on a context.",
  },
  {
    selector: `${scope} > VariableDeclaration > VariableDeclarator > CallExpression[callee.name="batchWhileBusy"]`,
    message: "A batcher holds a queue: make it at service start (src/service.ts) and pass it on a context.",
  },
]);

const transactionsQueryMessage = "Query the transactions read model through src/projections/transactions/queries.ts, beside its projection.";
const transactionsTableQueries = [
  {
    selector: `CallExpression[callee.property.name=/^(selectFrom|updateTable|insertInto|deleteFrom|innerJoin|leftJoin)$/][arguments.0.value=/^transactions( |$)/]`,
    message: transactionsQueryMessage,
  },
  { selector: `TemplateElement[value.raw=/\\b(from|join|update|into)\\s+transactions\\b/i]`, message: transactionsQueryMessage },
];

// The read models' tables (and the delivery log and leases read beside them): the routes and the
// CLI read them only through the queries modules in src/projections.
const readModelTables =
  "clients|api_keys|api_key_last_used|host_configurations|payment_methods|settlements|settlement_transactions|webhook_endpoints|webhook_deliveries|webhook_attempts|journal_entries|journal_payments|payments|projection_checkpoints";
const readModelQueryMessage = "Read a read model through its queries beside its projection (src/projections/<model>/queries.ts), not from a route or the CLI.";
const readModelTableQueries = [
  {
    selector: `CallExpression[callee.property.name=/^(selectFrom|updateTable|insertInto|deleteFrom|innerJoin|leftJoin)$/][arguments.0.value=/^(${readModelTables})( |$)/]`,
    message: readModelQueryMessage,
  },
  { selector: `TemplateElement[value.raw=/\\b(from|join|update|into)\\s+(${readModelTables})\\b/i]`, message: readModelQueryMessage },
];

export default tseslint.config(
  { ignores: ["node_modules", "data", "coverage", "scratch", "dist", "console/dist", "packages/client/dist", ".build-test-*", "test-artifacts"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: globals.node },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-console": "error",
    },
  },
  { files: ["bench/**", "tests/**", "scripts/**"], rules: { "no-console": "off" } },
  // The layering (README "Architecture"): domain <- commands <- api; projections <- api. Commands
  // decide from their streams and never import the read side; a lookup across streams reaches
  // them as a port they own, implemented in src/projections and given at service start.
  // Nor do commands build a query: no database schema, no kysely (a read model may lag, and the
  // card vault's tables are the vault's, src/vault), so a read-model query cannot be written there.
  ...[
    { layer: "domain", forbidden: ["commands", "projections", "api"] },
    {
      layer: "commands",
      forbidden: ["projections", "api"],
      queries: [
        {
          regex: "^kysely(/|$)|^(\\.\\./)+db(/|$)",
          message: "src/commands queries no table: it decides on its streams, and reads across them through a port it declares (src/commands/context.ts).",
        },
      ],
    },
    { layer: "projections", forbidden: ["commands", "api"] },
  ].map(({ layer, forbidden, queries = [] }) => ({
    files: [`src/${layer}/**/*.ts`],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: `^(\\.\\./)+(${forbidden.join("|")})(/|$)`,
              message: `src/${layer} does not import src/{${forbidden.join(",")}} (README "Architecture": the layering).`,
            },
            ...queries,
          ],
        },
      ],
    },
  })),
  {
    // No module-level mutable state (DESIGN.md): a module-level `let`, or an empty Map, Set,
    // WeakMap or WeakSet made to be filled, is state two services in one process would share.
    // Make it in src/service.ts and pass it on a context. Entry points are the process itself.
    files: ["src/**/*.ts"],
    ignores: ["**/main.ts"],
    rules: { "no-restricted-syntax": ["error", ...moduleState] },
  },
  {
    // A read model's queries sit beside its projection (README "Projections"): outside
    // src/projections, the `transactions` table is read through src/projections/transactions.
    // A later config's options replace an earlier one's for the same rule, hence moduleState again.
    files: ["src/**/*.ts"],
    ignores: ["**/main.ts", "src/projections/**", "src/db/migrations/**"],
    rules: { "no-restricted-syntax": ["error", ...moduleState, ...transactionsTableQueries] },
  },
  {
    // Routes and the CLI build no query of a read model of their own (docs/architecture.md "Projections").
    files: ["src/api/routes/**/*.ts", "src/cli/**/*.ts"],
    ignores: ["**/main.ts"],
    rules: { "no-restricted-syntax": ["error", ...moduleState, ...transactionsTableQueries, ...readModelTableQueries] },
  },
);
