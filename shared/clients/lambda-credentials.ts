/**
 * Bundled in place of `@aws-sdk/credential-provider-node` (infra/bundling.ts). Lambda hands a function
 * its role's credentials in environment variables, the first source the SDK's default chain tries and
 * the only one it ever uses there; the rest of the chain (INI files, SSO, process, web identity, IMDS
 * and the STS/SSO clients behind them) is about 140 KB every cold start would parse for nothing. Code
 * run from source (the embedded stack, scripts with a developer's profile) keeps the full chain.
 */
export { fromEnv as defaultProvider } from '@aws-sdk/credential-provider-env';
