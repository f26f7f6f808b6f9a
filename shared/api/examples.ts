/** Request examples of the reference, taken from the spec's own examples (ids are placeholders). */

const ENVIRONMENT_ID = '5F3C1E9A-8B2D-4C7E-9A1B-2D3E4F5A6B7C';
const FOLDER_ID = '0F8FAD5B-D9CB-469F-A165-70867728950E';
const DOCUMENT_ID = '7C9E6679-7425-40DE-944B-E07FC1F90AE7';

export const REQUEST_EXAMPLES = {
  login: {
    local: { summary: 'Local account', value: { username: 'admin', password: 'your-password' } },
  },
  createNode: {
    documentFolder: {
      summary: 'First-level document folder',
      value: {
        parent: { nodeId: ENVIRONMENT_ID },
        '@type': 'NodeElement',
        nodeType: 'DOCUMENT_SET',
        name: 'Policies',
      },
    },
    process: {
      summary: 'Process in a process folder',
      value: {
        parent: { nodeId: FOLDER_ID },
        '@type': 'Process',
        nodeType: 'PROCESS',
        name: 'Order to cash',
      },
    },
    urlDocument: {
      summary: 'Document referencing a URL',
      value: {
        parent: { nodeId: FOLDER_ID },
        '@type': 'Document',
        nodeType: 'DOCUMENT',
        documentType: 'URL',
        name: 'Travel policy',
        url: 'https://intranet.example.com/travel',
      },
    },
    environment: {
      summary: 'Environment (system administrators)',
      value: { '@type': 'NodeElement', nodeType: 'ENVIRONMENT', name: 'Finance' },
    },
  },
  updateNode: {
    rename: {
      summary: 'Full structure with the current nodeVersionId',
      value: {
        nodeId: DOCUMENT_ID,
        nodeVersionId: 'B5F3E1D2-4C6A-4E8B-9D0F-1A2B3C4D5E6F',
        parent: { nodeId: FOLDER_ID },
        '@type': 'Document',
        nodeType: 'DOCUMENT',
        documentType: 'URL',
        name: 'Travel policy 2027',
        url: 'https://intranet.example.com/travel',
      },
    },
  },
  deleteNode: {
    empty: { summary: 'Empty object', value: {} },
  },
  createUser: {
    editor: {
      summary: 'A content editor',
      value: {
        username: 'jane.doe',
        password: 'a-long-initial-password',
        name: 'Jane Doe',
        email: 'jane.doe@example.com',
      },
    },
  },
  updateUser: {
    disable: { summary: 'Disable a user (their sessions end at once)', value: { status: 'DISABLED' } },
  },
  grantRole: {
    editor: { summary: 'Editor of the subtree', value: { role: 'EDITOR' } },
  },
  createActions: {
    training: {
      summary: 'Training on a process, due in December',
      value: {
        actionType: 'TRAINING',
        targetNodeId: DOCUMENT_ID,
        users: ['3F2504E0-4F89-41D3-9A0C-0305E82C3301'],
        dueDate: '2026-12-15',
        comment: 'Please read the new travel policy',
      },
    },
  },
  putSettings: {
    defaults: { summary: 'The defaults', value: { SESSION_TIMEOUT: 30, WEBTOKEN_EXPIRES_IN: 1 } },
  },
};
