import type { z } from "zod";
import { ValidationError } from "../src/errors.js";

/**
 * Parses input with a zod schema; failures become one ValidationError carrying Laravel-style messages
 * ("The label field is required.", "The limit may not be greater than 500."), the wording of the contract.
 */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  // reportInput: the messages say "required" for a missing or blank value, so they need the input.
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  // Field names come from the client: "constructor" or "__proto__" must be plain keys, not Object's own.
  const errors: Record<string, string[]> = Object.create(null);
  const add = (field: string, message: string) => {
    // One message per field, the first rule that failed (a missing value is only "required").
    if (!Object.hasOwn(errors, field)) errors[field] = [message];
  };
  for (const issue of result.error.issues) {
    const field = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) add(key, `The ${key.replaceAll("_", " ")} field is prohibited.`);
    } else {
      add(field, laravelMessage(issue, field));
    }
  }
  throw new ValidationError(errors);
}

/** A zod `.refine` / custom message is taken as written; everything else is phrased the Laravel way. */
function laravelMessage(issue: z.core.$ZodIssue, field: string): string {
  const name = field.replaceAll("_", " ");
  const input = (issue as { input?: unknown }).input;
  const missing = input === undefined || input === null || (typeof input === "string" && input.trim() === "");
  switch (issue.code) {
    case "invalid_type":
      if (missing) return `The ${name} field is required.`;
      return typeMessage(name, issue.expected);
    case "too_big":
      if (issue.origin === "string")
        return `The ${name} may not be greater than ${issue.maximum} characters.`;
      if (issue.origin === "array") return `The ${name} may not have more than ${issue.maximum} items.`;
      return `The ${name} may not be greater than ${issue.maximum}.`;
    case "too_small":
      if (issue.origin === "string" || issue.origin === "array") {
        return issue.minimum === 1
          ? `The ${name} field is required.`
          : `The ${name} must be at least ${issue.minimum} ${issue.origin === "string" ? "characters" : "items"}.`;
      }
      return `The ${name} must be at least ${issue.minimum}.`;
    case "invalid_value":
      return missing ? `The ${name} field is required.` : `The selected ${name} is invalid.`;
    case "invalid_format":
      return `The ${name} format is invalid.`;
    default:
      return issue.message;
  }
}

function typeMessage(name: string, expected: string): string {
  switch (expected) {
    case "string":
      return `The ${name} must be a string.`;
    case "number":
    case "int":
      return `The ${name} must be an integer.`;
    case "boolean":
      return `The ${name} field must be true or false.`;
    case "array":
      return `The ${name} must be an array.`;
    default:
      return `The ${name} is invalid.`;
  }
}
