// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IERC721Receiver {
    function onERC721Received(address operator, address from, uint256 tokenId, bytes calldata data) external returns (bytes4);
}

/// @title Demo ERC-721 of the provider sandbox
/// @notice Token ids count up from 1; the sandbox faucet (the minter) gives one to every new wallet.
contract DemoNft {
    string public constant name = "Demo Collectible";
    string public constant symbol = "DNFT";

    address public immutable minter;
    uint256 public totalSupply;
    mapping(uint256 => address) private owners;
    mapping(address => uint256) private balances;
    mapping(uint256 => address) public getApproved;
    mapping(address => mapping(address => bool)) public isApprovedForAll;

    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);
    event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId);
    event ApprovalForAll(address indexed owner, address indexed operator, bool approved);

    constructor(address minter_) {
        minter = minter_;
    }

    function supportsInterface(bytes4 id) external pure returns (bool) {
        // ERC-165, ERC-721, ERC-721 metadata
        return id == 0x01ffc9a7 || id == 0x80ac58cd || id == 0x5b5e139f;
    }

    function ownerOf(uint256 tokenId) public view returns (address owner) {
        owner = owners[tokenId];
        require(owner != address(0), "DemoNft: token does not exist");
    }

    function balanceOf(address owner) external view returns (uint256) {
        require(owner != address(0), "DemoNft: zero address is not an owner");
        return balances[owner];
    }

    function tokenURI(uint256 tokenId) external view returns (string memory) {
        ownerOf(tokenId);
        return string.concat("data:application/json,{\"name\":\"Demo Collectible #", _decimal(tokenId), "\"}");
    }

    function mint(address to) external returns (uint256 tokenId) {
        require(msg.sender == minter, "DemoNft: caller is not the minter");
        require(to != address(0), "DemoNft: mint to the zero address");
        tokenId = ++totalSupply;
        owners[tokenId] = to;
        balances[to] += 1;
        emit Transfer(address(0), to, tokenId);
    }

    function approve(address to, uint256 tokenId) external {
        address owner = ownerOf(tokenId);
        require(msg.sender == owner || isApprovedForAll[owner][msg.sender], "DemoNft: not the owner nor an operator");
        getApproved[tokenId] = to;
        emit Approval(owner, to, tokenId);
    }

    function setApprovalForAll(address operator, bool approved) external {
        isApprovedForAll[msg.sender][operator] = approved;
        emit ApprovalForAll(msg.sender, operator, approved);
    }

    function transferFrom(address from, address to, uint256 tokenId) public {
        address owner = ownerOf(tokenId);
        require(owner == from, "DemoNft: from is not the owner");
        require(to != address(0), "DemoNft: transfer to the zero address");
        require(
            msg.sender == owner || getApproved[tokenId] == msg.sender || isApprovedForAll[owner][msg.sender],
            "DemoNft: caller is not the owner nor approved"
        );
        delete getApproved[tokenId];
        unchecked {
            balances[from] -= 1;
        }
        balances[to] += 1;
        owners[tokenId] = to;
        emit Transfer(from, to, tokenId);
    }

    function safeTransferFrom(address from, address to, uint256 tokenId) external {
        safeTransferFrom(from, to, tokenId, "");
    }

    function safeTransferFrom(address from, address to, uint256 tokenId, bytes memory data) public {
        transferFrom(from, to, tokenId);
        if (to.code.length > 0) {
            bytes4 answer = IERC721Receiver(to).onERC721Received(msg.sender, from, tokenId, data);
            require(answer == IERC721Receiver.onERC721Received.selector, "DemoNft: receiver refused the token");
        }
    }

    function _decimal(uint256 value) private pure returns (string memory) {
        if (value == 0) return "0";
        uint256 digits;
        for (uint256 rest = value; rest != 0; rest /= 10) digits++;
        bytes memory text = new bytes(digits);
        for (; value != 0; value /= 10) text[--digits] = bytes1(uint8(48 + (value % 10)));
        return string(text);
    }
}
