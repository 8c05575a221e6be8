export { loadLlmConfig, llmDefaults, llmEnvVariables, type LlmConfig } from './llm-config';
export { createLlmAdapters, createOpenAiClient, type LlmAdapters } from './llm-adapters';
