/** ISO 4217 minor units by currency code, from the domain's table (console/vite.config.ts). */
declare const __CURRENCY_EXPONENTS__: Record<string, number>;
