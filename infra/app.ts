/** CDK app: `npm run synth -- -c stage=NAME`, `npx cdk deploy -c stage=NAME`. */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { readCdkEnvironment } from '#shared/config/index.ts';
import { ContentRepositoryStack } from './stacks/content-repository-stack.ts';
import { stageSettings } from './stage.ts';

const app = new App();
const stage = stageSettings((key) => app.node.tryGetContext(key));
const { account, region } = readCdkEnvironment();
new ContentRepositoryStack(app, `ContentRepository-${stage.name}`, {
  stage,
  env: { account, region },
  description: `Content Repository API (stage ${stage.name})`,
});
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
