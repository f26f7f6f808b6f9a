/**
 * The token signing key's public half, read from KMS at deploy time. Handing it to every function as
 * TOKEN_PUBLIC_KEY keeps the KMS client (about 50 KB) out of every bundle but login's and saves
 * each cold start a GetPublicKey call; only login may call KMS, and only to sign.
 */
import { join } from 'node:path';
import { CustomResource, CustomResourceProvider, CustomResourceProviderRuntime } from 'aws-cdk-lib';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';

const RESOURCE_TYPE = 'Custom::TokenPublicKey';

export class TokenPublicKey extends Construct {
  /** Base64 DER SubjectPublicKeyInfo, as KMS GetPublicKey answers it. */
  readonly base64: string;

  constructor(scope: Construct, id: string, { key }: { key: IKey }) {
    super(scope, id);
    const provider = CustomResourceProvider.getOrCreateProvider(this, RESOURCE_TYPE, {
      codeDirectory: join(import.meta.dirname, 'token-public-key-handler'),
      runtime: CustomResourceProviderRuntime.NODEJS_22_X,
      description: 'Reads the public key of the access-token signing key at deploy time',
      policyStatements: [{ Effect: 'Allow', Action: ['kms:GetPublicKey'], Resource: key.keyArn }],
    });
    const resource = new CustomResource(this, 'Resource', {
      serviceToken: provider.serviceToken,
      resourceType: RESOURCE_TYPE,
      properties: { KeyId: key.keyArn },
    });
    this.base64 = resource.getAttString('PublicKey');
  }
}
