import express from 'express';

// Request bodies: JSON, at most 100 KiB after decompression (gzip, deflate and br are
// accepted). Both doors mount this only AFTER the bearer token has been checked, so an
// unauthenticated request never costs a read, an inflate or a parse.

export const BODY_LIMIT = '100kb';

export const jsonBody = () => express.json({ limit: BODY_LIMIT, strict: true });
