import { z } from 'zod';
import { posTinSchema } from './posapi-contract.js';

/**
 * PosAPI 3.0's taxpayer look-ups (the tax authority's info service) as the same descriptions
 * give them (posapi-contract.ts names the sources): a registry number's TIN, a TIN's registration.
 */

/** `GET {info}/api/info/check/getTinInfo?regNo=`: the TIN of a registry number. */
export const tinInfoQuerySchema = z.object({ regNo: z.string().min(1) });
/** `data` is typed number with a string example; the Go client reads an int. Both accepted. */
export const tinInfoAnswerSchema = z.looseObject({
  status: z.number().int(),
  msg: z.string().optional(),
  data: z.union([z.number().int(), z.string().regex(/^\d+$/)]).nullish(),
});

/** `GET {info}/api/info/check/getInfo?tin=`: a taxpayer's registration. */
export const taxpayerInfoQuerySchema = z.object({ tin: posTinSchema });
export const taxpayerInfoSchema = z.looseObject({
  name: z.string(),
  freeProject: z.boolean(),
  cityPayer: z.boolean(),
  vatPayer: z.boolean(),
  found: z.boolean(),
  vatpayerRegisteredDate: z.string().nullable(),
  /** Required by the OpenAPI; later than the rest (techpartners-asia/ebarimt-pos3-go lacks it). */
  isGovernment: z.boolean().optional(),
});
/** `data` is required by the OpenAPI; a TIN the authority does not know answers none (ours). */
export const taxpayerInfoAnswerSchema = z.looseObject({
  status: z.number().int(),
  msg: z.string(),
  data: taxpayerInfoSchema.nullable(),
});
