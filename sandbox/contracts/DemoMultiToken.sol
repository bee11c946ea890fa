// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IERC1155Receiver {
    function onERC1155Received(address operator, address from, uint256 id, uint256 value, bytes calldata data)
        external
        returns (bytes4);
    function onERC1155BatchReceived(
        address operator,
        address from,
        uint256[] calldata ids,
        uint256[] calldata values,
        bytes calldata data
    ) external returns (bytes4);
}

/// @title Demo ERC-1155 of the provider sandbox
/// @notice Any id can be minted by the sandbox faucet (the minter); new wallets get some of ids 1 and 2.
contract DemoMultiToken {
    address public immutable minter;
    mapping(uint256 => mapping(address => uint256)) public balanceOf;
    mapping(address => mapping(address => bool)) public isApprovedForAll;

    event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value);
    event TransferBatch(
        address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values
    );
    event ApprovalForAll(address indexed account, address indexed operator, bool approved);
    event URI(string value, uint256 indexed id);

    constructor(address minter_) {
        minter = minter_;
    }

    function supportsInterface(bytes4 id) external pure returns (bool) {
        // ERC-165, ERC-1155, ERC-1155 metadata URI
        return id == 0x01ffc9a7 || id == 0xd9b67a26 || id == 0x0e89341c;
    }

    function uri(uint256) external pure returns (string memory) {
        return "data:application/json,{\"name\":\"Demo Multi Token\"}";
    }

    function balanceOfBatch(address[] calldata accounts, uint256[] calldata ids) external view returns (uint256[] memory out) {
        require(accounts.length == ids.length, "DemoMultiToken: accounts and ids length mismatch");
        out = new uint256[](ids.length);
        for (uint256 i; i < ids.length; i++) out[i] = balanceOf[ids[i]][accounts[i]];
    }

    function setApprovalForAll(address operator, bool approved) external {
        isApprovedForAll[msg.sender][operator] = approved;
        emit ApprovalForAll(msg.sender, operator, approved);
    }

    function mint(address to, uint256 id, uint256 value) external {
        require(msg.sender == minter, "DemoMultiToken: caller is not the minter");
        require(to != address(0), "DemoMultiToken: mint to the zero address");
        balanceOf[id][to] += value;
        emit TransferSingle(msg.sender, address(0), to, id, value);
    }

    function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes calldata data) external {
        _checkCaller(from, to);
        _move(from, to, id, value);
        emit TransferSingle(msg.sender, from, to, id, value);
        if (to.code.length > 0) {
            bytes4 answer = IERC1155Receiver(to).onERC1155Received(msg.sender, from, id, value, data);
            require(answer == IERC1155Receiver.onERC1155Received.selector, "DemoMultiToken: receiver refused the tokens");
        }
    }

    function safeBatchTransferFrom(
        address from,
        address to,
        uint256[] calldata ids,
        uint256[] calldata values,
        bytes calldata data
    ) external {
        require(ids.length == values.length, "DemoMultiToken: ids and values length mismatch");
        _checkCaller(from, to);
        for (uint256 i; i < ids.length; i++) _move(from, to, ids[i], values[i]);
        emit TransferBatch(msg.sender, from, to, ids, values);
        if (to.code.length > 0) {
            bytes4 answer = IERC1155Receiver(to).onERC1155BatchReceived(msg.sender, from, ids, values, data);
            require(
                answer == IERC1155Receiver.onERC1155BatchReceived.selector, "DemoMultiToken: receiver refused the tokens"
            );
        }
    }

    function _checkCaller(address from, address to) private view {
        require(to != address(0), "DemoMultiToken: transfer to the zero address");
        require(from == msg.sender || isApprovedForAll[from][msg.sender], "DemoMultiToken: caller is not the owner nor approved");
    }

    function _move(address from, address to, uint256 id, uint256 value) private {
        uint256 held = balanceOf[id][from];
        require(held >= value, "DemoMultiToken: insufficient balance for transfer");
        unchecked {
            balanceOf[id][from] = held - value;
        }
        balanceOf[id][to] += value;
    }
}
