// JSON Schemas of the webhook control API's answers and of the body a delivery sends
// (docs/webhooks.md): views of the stored records of ./records.ts.
import { arrayOf, extend, int, nullable, num, obj, omit, pick, str } from './helpers.js';
import {
  deliveryRecordSchema,
  webhookEndpointRecordSchema,
  webhookEventRecordSchema,
  webhookFaultRecordSchema,
  webhookSendRecordSchema,
} from './records.js';

/** The endpoint as stored (without `seq`). */
export const webhookEndpointSchema = webhookEndpointRecordSchema;
/** The body a webhook delivery sends (docs/webhooks.md#body-and-headers): the stored event without its routing fields. */
export const webhookEventSchema = pick(webhookEventRecordSchema, ['id', 'type', 'createdAt', 'data']);
/** A delivery as the log shows it: the record with its endpoint's URL (null once the endpoint is gone) instead of its account. */
export const deliverySchema = extend(omit(deliveryRecordSchema, ['accountId']), { url: nullable(str) });
export const deliveryDetailSchema = extend(deliverySchema, { event: { oneOf: [webhookEventSchema, { type: 'null' }] } });
export const fireResultSchema = obj({ event: webhookEventSchema, deliveries: arrayOf(deliverySchema) });

/** A webhook fault as stored (without `seq`). */
export const webhookFaultSchema = webhookFaultRecordSchema;
/** The one attempt of POST /_sandbox/webhooks/send: the receiver's status, or the network error. */
export const webhookSendResultSchema = obj({ statusCode: nullable(int), error: nullable(str), durationMs: num });
/** A send as logged (without `seq`). */
export const webhookSendSchema = webhookSendRecordSchema;
