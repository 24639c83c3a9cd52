import { expect } from "vitest";
import type { ApiResponse } from "../support/api.js";

// What the contract (docs/api.md §2.2, §4.1, §7) promises for each outcome, shared by the imitation suites.

/** 404, the verification result of a transaction the bank does not know. */
export function expectNotFound(response: ApiResponse): void {
  expect(response.status, JSON.stringify(response.body)).toBe(404);
  expect(response.body.success).toBe(false);
  expect(response.body.exists).toBe(false);
  expect(response.body.duplicate).toBe(false);
  expect(response.body.data.verification_id).toBeNull();
  expect(response.body.data.receipt).toEqual({});
}

/** An ISO 8601 date-time with an offset or Z, naming the given instant. */
export function sameInstant(actual: unknown, expected: string): void {
  expect(typeof actual).toBe("string");
  expect(String(actual)).toMatch(/(Z|[+-]\d\d:\d\d)$/);
  expect(Date.parse(String(actual))).toBe(Date.parse(expected));
}
