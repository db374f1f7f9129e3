/**
 * How a full-record edit (PUT) is stored: the given fields are set, and an
 * optional field the form left out is removed rather than kept or stored
 * empty. `create` is what a new record starts with.
 */
export function recordChanges<T extends object>(input: T, optionalFields: readonly (keyof T)[]) {
  const create: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(input)) {
    if (value !== undefined) create[field] = value;
  }
  const unset: Record<string, 1> = {};
  for (const field of optionalFields) {
    if (input[field] === undefined) unset[String(field)] = 1;
  }
  const update = { $set: create, ...(Object.keys(unset).length > 0 && { $unset: unset }) };
  return { create, update };
}
