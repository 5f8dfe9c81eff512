-- Drives `mcplint server` from Neovim (TestServerNeovim): open a crashing
-- server file, wait for the MCP101 diagnostic, apply the preferred (safe)
-- code action, save, and wait for the diagnostic to go. Written for the
-- Neovim of Debian 12 (0.7: vim.lsp.start_client; vim.lsp.start is 0.8+).
-- Any failure exits with status 1 and says why on stderr.
local bin = os.getenv('MCPLINT_BIN')
local dir = os.getenv('MCPLINT_DIR')
local timeout = 30000

-- The server's publications for server.py: how many MCP101 each holds.
local published = {}
local publish = vim.lsp.handlers['textDocument/publishDiagnostics']
vim.lsp.handlers['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
  if result and vim.uri_to_fname(result.uri) == dir .. '/server.py' then
    local n = 0
    for _, d in ipairs(result.diagnostics) do
      if d.code == 'MCP101' then n = n + 1 end
    end
    table.insert(published, n)
  end
  return publish(err, result, ctx, config)
end

local function run()
  vim.cmd('edit ' .. vim.fn.fnameescape(dir .. '/server.py'))
  local buf = vim.api.nvim_get_current_buf()
  local id = vim.lsp.start_client({ name = 'mcplint', cmd = { bin, 'server' }, root_dir = dir })
  if not id then error('the client did not start') end
  vim.lsp.buf_attach_client(buf, id)

  local function finding()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.code == 'MCP101' then return d end
    end
  end
  if not vim.wait(timeout, function() return finding() ~= nil end, 20) then
    error('no MCP101 diagnostic on server.py; diagnostics: ' .. vim.inspect(vim.diagnostic.get(buf)))
  end
  local d = finding()
  if d.source ~= 'mcplint' then error('source: ' .. tostring(d.source)) end
  -- pyproject.toml's [tool.mcplint] ignores MCP001, which requirements.txt
  -- (published before server.py: files go out in path order) would have.
  for _, other in ipairs(vim.diagnostic.get()) do
    if other.code == 'MCP001' then error('MCP001 reported although [tool.mcplint] ignores it') end
  end

  vim.api.nvim_win_set_cursor(0, { d.lnum + 1, d.col })
  local params = vim.lsp.util.make_range_params()
  params.context = { diagnostics = {} }
  local replies = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', params, timeout)
  local reply = replies and replies[id]
  if not reply or reply.error then error('codeAction: ' .. vim.inspect(replies)) end
  local action
  for _, a in ipairs(reply.result or {}) do
    if a.isPreferred then action = a break end
  end
  if not action then error('no preferred action: ' .. vim.inspect(reply.result)) end
  if action.title:find('unsafe', 1, true) then error('the preferred action is unsafe: ' .. action.title) end
  local client = vim.lsp.get_client_by_id(id)
  vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding or 'utf-16')
  local before = #published
  vim.cmd('write')

  -- Gone in a publication the server made after the fix, and in Neovim.
  local function gone() return #published > before and published[#published] == 0 and finding() == nil end
  if not vim.wait(timeout, gone, 20) then
    error('MCP101 still there after the fix and the save: ' .. vim.inspect(vim.diagnostic.get(buf)))
  end
end

local ok, err = pcall(run)
if not ok then
  io.stderr:write('FAIL: ' .. tostring(err) .. '\n')
  vim.cmd('cquit 1')
end
vim.cmd('qall!')
