export * from './amount.js';
export * from './lookup.js';
export * from './systems.js';
export * from './params.js';
export * from './email.js';
export * from './request.js';
export * from './messages.js';
export * from './clean-text.js';
