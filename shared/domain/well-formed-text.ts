/**
 * Text every UTF-8 store can carry: no lone surrogate (a JSON string can hold one, `\ud800`; DynamoDB, S3
 * and headers cannot). `String.prototype.isWellFormed` is not in every runtime we support.
 */
const LONE_SURROGATE = /\p{Surrogate}/u;

export const isWellFormedText = (text: string): boolean => !LONE_SURROGATE.test(text);
