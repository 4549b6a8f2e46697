// Types of .dependency-cruiser.mjs, for the test that probes its rules (test/architecture/).
import type { IConfiguration } from 'dependency-cruiser';

declare const configuration: Required<Pick<IConfiguration, 'forbidden'>> & IConfiguration;
export default configuration;
