import preact from "@preact/preset-vite";
import { defineConfig } from "vite";
import { knownCurrencies, minorUnitExponent } from "../src/domain/money.ts";

/** The domain's ISO 4217 minor units, baked into the bundle: the console never asks Intl for digits. */
const currencyExponents = Object.fromEntries(knownCurrencies.map((code) => [code, minorUnitExponent(code)]));

export default defineConfig({
  root: import.meta.dirname,
  base: "/console/",
  plugins: [preact({ devToolsEnabled: false, prefreshEnabled: false })],
  define: { __CURRENCY_EXPONENTS__: JSON.stringify(currencyExponents) },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // Everything as files of its own: the Content-Security-Policy allows no inline script or style.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    target: "es2022",
  },
  logLevel: "warn",
});
