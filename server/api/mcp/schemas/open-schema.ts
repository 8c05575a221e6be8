import { z } from 'zod';

/**
 * A services' view schema as MCP declares it: every object open (`z.looseObject`), no readonly
 * wrappers, defaults as optional fields, descriptions kept. A field a view gains later must not make a client's validation of
 * an older declaration fail.
 *
 * Typed as the schema it is given: the open objects only add index signatures, which a tool's
 * `OutputOf` drops anyway.
 */
export function openSchema<T extends z.ZodType>(schema: T): T {
  return open(schema) as T;
}

function open(schema: z.ZodType): z.ZodType {
  const opened = rebuild(schema);
  if (opened === schema) return schema;
  const meta = z.globalRegistry.get(schema);
  return meta === undefined ? opened : opened.meta(meta);
}

const openAll = (schemas: readonly z.core.SomeType[]): z.ZodType[] =>
  schemas.map((s) => open(s as z.ZodType));

function rebuild(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodObject) {
    const shape = Object.entries<z.ZodType>(schema.shape);
    return z.looseObject(Object.fromEntries(shape.map(([key, field]) => [key, open(field)])));
  }
  if (schema instanceof z.ZodArray) return z.array(open(schema.element as z.ZodType));
  if (schema instanceof z.ZodNullable) return open(schema.unwrap() as z.ZodType).nullable();
  if (schema instanceof z.ZodOptional) return open(schema.unwrap() as z.ZodType).optional();
  if (schema instanceof z.ZodReadonly) return open(schema.unwrap() as z.ZodType);
  // MCP sends what the service returned, unparsed: a field the view fills in by default may be
  // absent from it, so it is declared optional (as an output, a default would make it required).
  if (schema instanceof z.ZodDefault) return open(schema.unwrap() as z.ZodType).optional();
  if (schema instanceof z.ZodRecord) {
    return z.record(schema.keyType, open(schema.valueType as z.ZodType));
  }
  if (schema instanceof z.ZodDiscriminatedUnion) {
    const options = openAll(schema.options) as [z.ZodObject, ...z.ZodObject[]];
    return z.discriminatedUnion(schema.def.discriminator, options);
  }
  if (schema instanceof z.ZodUnion) {
    return z.union(openAll(schema.options) as [z.ZodType, ...z.ZodType[]]);
  }
  return schema;
}
