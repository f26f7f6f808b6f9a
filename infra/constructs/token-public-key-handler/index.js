// Runs at deploy time (CloudFormation custom resource, CDK's provider entrypoint around it): reads the
// public half of the token signing key, so functions get it as TOKEN_PUBLIC_KEY and verify tokens
// without a KMS client. Plain CommonJS on the Lambda runtime's own AWS SDK: nothing to bundle.
const { GetPublicKeyCommand, KMSClient } = require('@aws-sdk/client-kms');

exports.handler = async (event) => {
  const keyId = event.ResourceProperties.KeyId;
  if (event.RequestType === 'Delete') return { PhysicalResourceId: event.PhysicalResourceId };
  const { PublicKey, KeySpec } = await new KMSClient({}).send(new GetPublicKeyCommand({ KeyId: keyId }));
  if (!PublicKey || KeySpec !== 'ECC_NIST_P256') throw new Error(`${keyId} has no P-256 public key`);
  // Binary as base64: CloudFormation attributes are strings (CDK's AwsCustomResource would UTF-8 decode it).
  return { PhysicalResourceId: keyId, Data: { PublicKey: Buffer.from(PublicKey).toString('base64') } };
};
