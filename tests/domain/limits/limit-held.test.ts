import { describe, expect, it } from "vitest";
import { fold } from "../../../src/domain/decider.ts";
import { limitHeldBy } from "../../../src/domain/limits/limits.ts";
import { paymentDecider, type PaymentEvent } from "../../../src/domain/payments/index.ts";
import { approved, approvedLate, declined, failed, initiated, reversalRequested, reversed } from "../payments/fixtures.ts";

const held = (...events: readonly PaymentEvent[]): number => limitHeldBy(fold(paymentDecider, events));
const authorized = [initiated("auth", "authorization", 1000), approved("auth")];
const sold = [initiated("sale", "sale", 800), approved("sale")];
const captured = (id: string, amount: number) => [initiated(id, "capture", amount, "auth"), approved(id)];
const voided = (id: string, amount: number, parent: string) => [initiated(id, "void", amount, parent), approved(id)];

describe("what a payment holds of its day's limits", () => {
  it("a root holds its amount while pending and once approved; nothing once declined or failed", () => {
    expect(held(initiated("sale", "sale", 800))).toBe(800);
    expect(held(...sold)).toBe(800);
    expect(held(initiated("sale", "sale", 800), declined("sale"))).toBe(0);
    expect(held(initiated("sale", "sale", 800), failed("sale"))).toBe(0);
  });

  it("a voided sale holds nothing; a refunded one still holds its amount", () => {
    expect(held(...sold, ...voided("void", 800, "sale"))).toBe(800 - 800);
    expect(held(...sold, initiated("refund", "refund", 300, "sale"), approved("refund"))).toBe(800);
  });

  it("an authorization holds its whole amount until its rest is released, whatever is captured or voided of it meanwhile", () => {
    expect(held(...authorized, ...captured("c1", 300))).toBe(1000);
    expect(held(...authorized, ...captured("c1", 300), ...voided("v1", 300, "c1"))).toBe(1000);
  });

  it("once its rest is released, only its captures that are approved and not voided, or pending", () => {
    const released = [...authorized, ...captured("c1", 300), ...captured("c2", 200), ...voided("rest", 500, "auth")];
    expect(held(...released)).toBe(500);
    expect(held(...released, ...voided("v1", 300, "c1"))).toBe(200);
    expect(held(...released, ...voided("v1", 300, "c1"), ...voided("v2", 200, "c2"))).toBe(0);
    expect(held(...authorized, initiated("c1", "capture", 300, "auth"), ...voided("rest", 700, "auth"))).toBe(300);
    expect(held(...authorized, initiated("c1", "capture", 300, "auth"), ...voided("rest", 700, "auth"), failed("c1"))).toBe(0);
  });

  it("a voided authorization with nothing captured holds nothing", () => {
    expect(held(...authorized, ...voided("void", 1000, "auth"))).toBe(0);
  });

  it("a failed root holds nothing, even while a late approval of it is reversed", () => {
    const lateApproved = [initiated("sale", "sale", 800), failed("sale"), approvedLate("sale")];
    expect(held(...lateApproved)).toBe(0);
    expect(held(...lateApproved, reversalRequested("sale"), reversed("sale"))).toBe(0);
  });
});
